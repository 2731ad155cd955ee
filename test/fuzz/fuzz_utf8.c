/* fuzz_utf8.c - the UTF-8 decoder and the human escaper (utf8.c,
 * log.c's log_escape_step) under arbitrary bytes, against the
 * independent oracle of json_check.h (Unicode's table of well-formed
 * sequences): the decoder agrees with it at every offset, and both human
 * forms leave no control to a terminal: log_escape's output holds only
 * well-formed characters outside the control set and \xNN escapes, and
 * reads back to exactly the input; a stream's holds no control but tab
 * and newline. */
#include <string.h>

#include "common/base/log.h"
#include "common/base/utf8.h"
#include "fuzz.h"
#include "json_check.h"

#define IN_MAX 4096

static char out[IN_MAX * LOG_ESCAPE_STEP_MAX + 8];
static uint8_t back[IN_MAX];

/* The raw character at s[0..n) (not an escape) is one a terminal shows. */
static size_t
shown(const uint8_t *s, size_t n, int stream)
{
	size_t len;
	uint32_t cp = jc_utf8(s, n, &len);

	FUZZ_ASSERT(!(cp == 0xfffd && len == 1));	/* well-formed */
	FUZZ_ASSERT(!jc_must_escape(cp) || cp == '"' || cp == '\\' ||
	    (stream && (cp == '\t' || cp == '\n')));
	return len;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nb = 0;

	if (size > IN_MAX)
		return 0;
	for (size_t i = 0; i < size; i++) {
		uint32_t cp = 0;
		size_t len = utf8_seq(data + i, size - i, &cp), jlen;
		uint32_t jcp = jc_utf8(data + i, size - i, &jlen);

		if (len == 0) {
			FUZZ_ASSERT(jcp == 0xfffd && jlen == 1 && data[i] >= 0x80);
		} else {
			FUZZ_ASSERT(len == jlen && cp == jcp);
			FUZZ_ASSERT(utf8_must_escape(cp) == (jc_must_escape(cp) &&
			    cp != '"' && cp != '\\'));
		}
	}
	/* log_escape: lossless, only shown characters and \xNN */
	log_escape(out, sizeof out, data, size);
	for (const uint8_t *s = (const uint8_t *)out; *s; ) {
		size_t left = strlen((const char *)s);

		if (s[0] == '\\') {
			FUZZ_ASSERT(left >= 4 && s[1] == 'x' && jc_hex(s[2]) >= 0 &&
			    jc_hex(s[3]) >= 0);
			back[nb++] = (uint8_t)(jc_hex(s[2]) * 16 + jc_hex(s[3]));
			s += 4;
			continue;
		}
		{
			size_t len = shown(s, left, 0);

			memcpy(back + nb, s, len);
			nb += len;
			s += len;
		}
	}
	FUZZ_ASSERT(nb == size && memcmp(back, data, size) == 0);
	/* the stream form: each step is the input's character as itself,
	 * one a terminal shows (tab and newline too), or its first byte as
	 * \xNN */
	for (size_t off = 0; off < size; ) {
		size_t before = off, k = log_stream_step(data, size, &off, out);

		FUZZ_ASSERT(k >= 1 && k <= LOG_ESCAPE_STEP_MAX && off > before);
		if (k == 4 && out[0] == '\\' && off == before + 1)
			FUZZ_ASSERT(out[1] == 'x' && jc_hex((uint8_t)out[2]) * 16 +
			    jc_hex((uint8_t)out[3]) == data[before]);
		else
			FUZZ_ASSERT(k == off - before &&
			    memcmp(out, data + before, k) == 0 &&
			    shown((const uint8_t *)out, k, 1) == k);
	}
	return 0;
}
