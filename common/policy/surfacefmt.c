/* surfacefmt.c - a captured surface as text and JSON for reviewers. */
#include "common/policy/surfacefmt.h"

#include <stdlib.h>
#include <string.h>

#include "common/base/json.h"
#include "common/base/utf8.h"
#include "common/policy/reviewfmt.h"

static void
hex(FILE *f, const uint8_t d[32])
{
	for (int i = 0; i < 32; i++)
		fprintf(f, "%02x", d[i]);
}

/* v's canonical form, escaped as text. */
static void
canonical_text(FILE *f, struct surface *s, const struct json_node *v)
{
	struct jcs_buf b = { malloc(SURFACE_TEXT_MAX), SURFACE_TEXT_MAX, 0 };
	struct jcs_sink sink = { jcs_buf_put, &b };

	if (b.p && jcs_write(&s->doc, v, &sink, s->scratch) == 0)
		rfmt_esc(f, b.p, b.len);
	else
		fputs("(no canonical form)", f);
	free(b.p);
}

static void
row(FILE *f, struct surface *s, const char *label, const struct json_node *v)
{
	fprintf(f, "%-14s", label);
	canonical_text(f, s, v);
	fputc('\n', f);
}

void
surface_print(FILE *f, struct surface *s)
{
	row(f, s, "protocol", s->protocol);
	row(f, s, "server", s->server_info);
	if (s->capabilities)
		row(f, s, "capabilities", s->capabilities);
	else
		fprintf(f, "%-14s(none)\n", "capabilities");
	if (s->instructions)
		row(f, s, "instructions", s->instructions);
	else
		fprintf(f, "%-14s(none)\n", "instructions");
	for (int k = 0; k < SK_N_; k++) {
		const struct json_node *a = s->items[k];
		size_t i = json_index(&s->doc, a) + 1;

		fprintf(f, "%zu %ss\n", (size_t)a->count,
		    surface_kind_names[k]);
		for (uint32_t m = 0; m < a->count; m++) {
			const struct json_node *e = &s->doc.nodes[i];
			uint8_t d[32];

			fprintf(f, "  %s ", surface_kind_names[k]);
			canonical_text(f, s, json_get(&s->doc, e, "name", 4));
			fputs(" sha256=", f);
			if (jcs_sha256(&s->doc, e, s->scratch, d) == 0)
				hex(f, d);
			fputs("\n    ", f);
			canonical_text(f, s, e);
			fputc('\n', f);
			i = e->end;
		}
	}
}

/* A decoded string through the one JSON escaper. */
static void
json_string(FILE *f, struct surface *s, const struct json_node *v)
{
	uint8_t *buf = malloc((size_t)v->len + 1);
	size_t pos = 0, at = 0;
	uint32_t cp;

	if (!buf) {
		fputs("\"\"", f);
		return;
	}
	while (json_str_next(&s->doc, v, &pos, &cp))
		at += utf8_put(cp, buf + at);
	json_write_quoted(f, buf, at);
	free(buf);
}

static void
json_value(FILE *f, struct surface *s, const struct json_node *v)
{
	size_t i = json_index(&s->doc, v) + 1;
	char num[JCS_NUMBER_MAX];
	int n;

	switch (v->type) {
	case JSON_NULL: fputs("null", f); return;
	case JSON_FALSE: fputs("false", f); return;
	case JSON_TRUE: fputs("true", f); return;
	case JSON_NUMBER:
		n = jcs_number(s->doc.src + v->off, v->len, num);
		fprintf(f, "%.*s", n < 0 ? 1 : n, n < 0 ? "0" : num);
		return;
	case JSON_STRING:
		json_string(f, s, v);
		return;
	default:
		break;
	}
	fputc(v->type == JSON_ARRAY ? '[' : '{', f);
	for (uint32_t m = 0; m < v->count; m++) {
		const struct json_node *e = &s->doc.nodes[i];

		fputs(m ? "," : "", f);
		if (v->type == JSON_OBJECT) {
			json_string(f, s, e);
			fputc(':', f);
			e++;
		}
		json_value(f, s, e);
		i = e->end;
	}
	fputc(v->type == JSON_ARRAY ? ']' : '}', f);
}

void
surface_print_json(FILE *f, struct surface *s)
{
	fputs("{\"protocolVersion\":", f);
	json_value(f, s, s->protocol);
	fputs(",\"serverInfo\":", f);
	json_value(f, s, s->server_info);
	if (s->capabilities) {
		fputs(",\"capabilities\":", f);
		json_value(f, s, s->capabilities);
	}
	if (s->instructions) {
		fputs(",\"instructions\":", f);
		json_value(f, s, s->instructions);
	}
	for (int k = 0; k < SK_N_; k++) {
		const struct json_node *a = s->items[k];
		size_t i = json_index(&s->doc, a) + 1;

		fprintf(f, ",\"%s\":[", surface_kind_keys[k]);
		for (uint32_t m = 0; m < a->count; m++) {
			const struct json_node *e = &s->doc.nodes[i];
			uint8_t d[32];

			fputs(m ? ",{\"sha256\":\"" : "{\"sha256\":\"", f);
			if (jcs_sha256(&s->doc, e, s->scratch, d) == 0)
				hex(f, d);
			fputs("\",\"item\":", f);
			json_value(f, s, e);
			fputc('}', f);
			i = e->end;
		}
		fputc(']', f);
	}
	fputc('}', f);
}
