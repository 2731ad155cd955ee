/* pem.c - one strict PEM object over BearSSL's decoder state machine. */
#include "common/policy/pem.h"

#include <string.h>

#include <bearssl_pem.h>

static const char *const status_texts[] = {
	[PEM_OK] = "ok",
	[PEM_NONE] = "no PEM object found",
	[PEM_LABEL] = "PEM object has an unexpected label",
	[PEM_SYNTAX] = "malformed PEM (bad base64 or BEGIN/END lines)",
	[PEM_MULTIPLE] = "more than one PEM object",
	[PEM_TOO_BIG] = "PEM object too large",
};

const char *
pem_status_text(enum pem_status s)
{
	if ((unsigned)s < sizeof status_texts / sizeof status_texts[0])
		return status_texts[s];
	return "unknown PEM status";
}

/* Where the decoder's output goes: a fixed buffer that never overflows;
 * an object that does not fit only sets the flag. */
struct sink {
	uint8_t *p;
	size_t cap, len;
	int over;
};

static void
sink_put(void *ctx, const void *src, size_t n)
{
	struct sink *s = ctx;

	if (s->over || n > s->cap - s->len) {
		s->over = 1;
		return;
	}
	memcpy(s->p + s->len, src, n);
	s->len += n;
}

/* Feed n bytes, handling every event; 0 to go on, or a final status. */
static enum pem_status
feed(br_pem_decoder_context *pc, const char *p, size_t n, const char *label,
    struct sink *sink, int *inside, int *found)
{
	while (n > 0) {
		size_t used = br_pem_decoder_push(pc, p, n);

		p += used;
		n -= used;
		switch (br_pem_decoder_event(pc)) {
		case BR_PEM_BEGIN_OBJ:
			if (*found)
				return PEM_MULTIPLE;
			if (strcmp(br_pem_decoder_name(pc), label) != 0)
				return PEM_LABEL;
			br_pem_decoder_setdest(pc, sink_put, sink);
			*inside = 1;
			break;
		case BR_PEM_END_OBJ:
			*inside = 0;
			*found = 1;
			if (sink->over)
				return PEM_TOO_BIG;
			break;
		case BR_PEM_ERROR:
			return PEM_SYNTAX;
		case 0:
			break;
		default:
			return PEM_SYNTAX;
		}
	}
	return PEM_OK;
}

enum pem_status
pem_decode(const char *text, size_t len, const char *label, uint8_t *der,
    size_t cap, size_t *der_len)
{
	br_pem_decoder_context pc;
	struct sink sink = { der, cap, 0, 0 };
	int inside = 0, found = 0;
	enum pem_status st;

	br_pem_decoder_init(&pc);
	st = feed(&pc, text, len, label, &sink, &inside, &found);
	/* The END line of a file without a final newline is only complete
	 * once a newline follows it. */
	if (st == PEM_OK)
		st = feed(&pc, "\n", 1, label, &sink, &inside, &found);
	if (st != PEM_OK)
		return st;
	if (inside)
		return PEM_SYNTAX;
	if (!found)
		return PEM_NONE;
	*der_len = sink.len;
	return PEM_OK;
}

long
pem_encode(const uint8_t *der, size_t len, const char *label, char *out,
    size_t cap)
{
	size_t need = br_pem_encode(NULL, der, len, label, BR_PEM_LINE64);

	if (need >= cap)
		return -1;
	return (long)br_pem_encode(out, der, len, label, BR_PEM_LINE64);
}
