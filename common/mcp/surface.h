/* surface.h - an MCP server's tool surface: what a reviewer saw at
 * capture (review submit --capture), what an approval pins by its
 * SHA-256, and what a runner compares the server's answers against
 * (docs/PROTOCOL.md, "Surface pins").
 *
 * The surface document is one JSON object in RFC 8785 canonical form:
 *
 *	{"capabilities":O,		initialize's result; absent when
 *					the server sent none
 *	 "instructions":S,		absent when the server sent none
 *	 "prompts":[P...],		each prompts/list item, whole
 *	 "protocolVersion":S,		initialize's result
 *	 "resourceTemplates":[R...],	each resources/templates/list item
 *	 "serverInfo":O,		initialize's result
 *	 "tools":[T...]}		each tools/list item, whole
 *
 * Items keep the server's order (pages concatenated). Every item is an
 * object with a string "name", one per name in its list: an item is
 * found by kind and name. Its digest is SHA-256 of its canonical form.
 * A document that is not exactly this, or not canonical, is refused. */
#ifndef AIRLOCK_SURFACE_H
#define AIRLOCK_SURFACE_H

#include <stddef.h>
#include <stdint.h>

#include "common/mcp/jcs.h"
#include "common/mcp/jsonparse.h"

#define SURFACE_TEXT_MAX (4u << 20)	/* the document's bytes */
#define SURFACE_ITEMS_MAX 1024		/* items of one kind */
#define SURFACE_NAME_MAX 256		/* an item name, decoded, bytes */
#define SURFACE_VERSION_MAX 64		/* a protocol version, canonical */
/* The document's parse, bounded as one MCP message is (mcptap.h's
 * MCP_NODES_MAX, MCP_MEMBERS_MAX; not included: mcptap includes this). */
#define SURFACE_NODES_MAX (1u << 17)
#define SURFACE_MEMBERS_MAX 16384

enum surface_kind { SK_TOOL, SK_PROMPT, SK_TEMPLATE, SK_N_ };

/* "tool", "prompt", "resource template"; and the document's keys and
 * the list results' array members ("tools", "prompts",
 * "resourceTemplates"). */
extern const char *const surface_kind_names[SK_N_];
extern const char *const surface_kind_keys[SK_N_];

/* A loaded document: the parse, and where its parts are. */
struct surface {
	struct json_doc doc;
	const struct json_node *protocol, *server_info, *instructions;
	const struct json_node *capabilities;
	const struct json_node *items[SK_N_];	/* the arrays */
	uint8_t *text;				/* owned */
	size_t len;
	struct json_node *nodes;		/* owned */
	uint32_t *scratch;			/* owned, 2 x nodes */
	size_t cap;
};

/* Parse p[0..n) (copied) as a surface document and check its shape,
 * canonical form and unique names. 0, or -1 with why in err. The
 * caller frees with surface_free (also after -1). */
int surface_load(struct surface *s, const uint8_t *p, size_t n, char *err,
    size_t errcap);
void surface_free(struct surface *s);

/* surface_load of dir/HEX.json, the file named by digest (64 hex,
 * common/lock/lockstore.h: the review store's STORE/surfaces, a runner's
 * --surface-store), its bytes checked against the digest first. 0, or
 * -1 with why in err (missing, altered, not a surface document). */
int surface_read(struct surface *s, const char *dir, const uint8_t
    digest[32], char *err, size_t errcap);

/* How an answer differs from the pin (SD_SAME is 0). */
enum surface_diff {
	SD_SAME,
	SD_CHANGED,	/* a member changed, was added or was removed */
	SD_UNPINNED,	/* an item the pin does not hold */
	SD_MALFORMED	/* not an object, no string name */
};

/* Compare item (of doc d, a list result's element) with the pinned item
 * of its kind and name. SD_SAME when they are canonically equal; else
 * how they differ, and what in why ("tool 'x': description changed",
 * "... not in the pin (added)", "... without a string name"). scratch
 * holds d->n entries. */
enum surface_diff surface_check_item(struct surface *s, enum surface_kind k,
    const struct json_doc *d, const struct json_node *item,
    uint32_t *scratch, char *why, size_t cap);

/* Compare an initialize result with the pin: serverInfo, capabilities
 * and instructions (present or absent alike) as pinned, whatever version
 * was negotiated; protocolVersion a string that is the pin's or the one
 * this client asked for (asked[0..asked_len): its canonical JSON text,
 * or asked_len 0 when the request had none a check can use): a server
 * answers the client's version when it speaks it (MCP's negotiation),
 * and nothing else of the result may depend on it. SD_SAME, or how it
 * differs with why. Other members (_meta) are not pinned. */
enum surface_diff surface_check_init(struct surface *s, const struct json_doc *d,
    const struct json_node *result, const uint8_t *asked, size_t asked_len,
    uint32_t *scratch, char *why, size_t cap);

/* The canonical text of an initialize request's params.protocolVersion
 * into out (SURFACE_VERSION_MAX bytes): its length, or 0 when params has
 * none, it is not a string or it is longer. */
size_t surface_asked_version(const struct json_doc *d,
    const struct json_node *params, uint32_t *scratch,
    uint8_t out[SURFACE_VERSION_MAX]);

/* Building a document from the captured answers (review submit
 * --capture): each part in canonical form as it arrives. */
struct surface_builder {
	struct jcs_buf part[SK_N_];		/* "item,item,..." */
	size_t count[SK_N_];
	struct jcs_buf protocol, server_info, instructions, capabilities;
	int has_instructions, has_capabilities;
};

/* Buffers of SURFACE_TEXT_MAX each (malloc'd); 0 or -1. */
int surface_builder_init(struct surface_builder *b);
void surface_builder_free(struct surface_builder *b);

/* Take an initialize result; 0, or -1 with why (no protocolVersion
 * string, no serverInfo object, instructions not a string, capabilities
 * not an object, too big). */
int surface_add_init(struct surface_builder *b, const struct json_doc *d,
    const struct json_node *result, uint32_t *scratch, char *why,
    size_t cap);

/* Take one item of kind k; 0, or -1 with why (too many, too big, a
 * number with no canonical form). */
int surface_add_item(struct surface_builder *b, enum surface_kind k,
    const struct json_doc *d, const struct json_node *item,
    uint32_t *scratch, char *why, size_t cap);

/* The document (malloc'd, *len bytes), or NULL with why. */
uint8_t *surface_finish(struct surface_builder *b, size_t *len, char *why,
    size_t cap);

/* A name as text for a message: decoded, cut, every byte outside
 * printable ASCII as '?' (messages and log fields stay plain). */
void surface_name(const struct json_doc *d, const struct json_node *name,
    char *out, size_t cap);

#endif
