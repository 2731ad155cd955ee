/* base64_test.c - RFC 4648 §10's test vectors (BASE64 and BASE16), every
 * byte value both ways, and each rule of the strict decoders. */
#include <string.h>

#include "common/base/base64.h"
#include "tap.h"

static const struct {
	const char *plain, *b64, *hex;
} rfc[] = {
	{ "", "", "" },
	{ "f", "Zg==", "66" },
	{ "fo", "Zm8=", "666F" },
	{ "foo", "Zm9v", "666F6F" },
	{ "foob", "Zm9vYg==", "666F6F62" },
	{ "fooba", "Zm9vYmE=", "666F6F6261" },
	{ "foobar", "Zm9vYmFy", "666F6F626172" },
};

/* base64 refusals: the input, the reason, the offset it names */
static const struct {
	const char *in;
	long why;
	size_t at;
} bad64[] = {
	{ "Zg", TEXTDEC_LENGTH, 2 },		/* padding missing */
	{ "Zm8", TEXTDEC_LENGTH, 3 },
	{ "Zg=", TEXTDEC_LENGTH, 3 },
	{ "Zg===", TEXTDEC_LENGTH, 5 },		/* padding extra */
	{ "Zg==Zg==", TEXTDEC_PAD, 2 },		/* padding before the end */
	{ "Zm9v====", TEXTDEC_PAD, 4 },		/* a quantum of padding */
	{ "Z===", TEXTDEC_PAD, 1 },		/* one character and === */
	{ "====", TEXTDEC_PAD, 0 },
	{ "Z=g=", TEXTDEC_PAD, 1 },
	{ "Zh==", TEXTDEC_PAD, 1 },		/* bits under '=' set */
	{ "Zm9=", TEXTDEC_PAD, 2 },
	{ "Zm8/Zm9=", TEXTDEC_PAD, 6 },
	{ "-_8=", TEXTDEC_CHAR, 0 },		/* the URL-safe alphabet */
	{ "Zm_v", TEXTDEC_CHAR, 2 },
	{ "Zm9v\nZm9v", TEXTDEC_LENGTH, 9 },	/* a line break */
	{ "Zm9v\r\nZm", TEXTDEC_CHAR, 4 },
	{ "Zm 9", TEXTDEC_CHAR, 2 },		/* a space */
	{ "Zm9\t", TEXTDEC_CHAR, 3 },
	{ "Zm9\xc3", TEXTDEC_CHAR, 3 },
};

static const struct {
	const char *in;
	long why;
	size_t at;
} badhex[] = {
	{ "6", TEXTDEC_LENGTH, 1 }, { "666", TEXTDEC_LENGTH, 3 },
	{ "6g", TEXTDEC_CHAR, 1 }, { "x6", TEXTDEC_CHAR, 0 },
	{ "66 6", TEXTDEC_CHAR, 2 }, { "0x66", TEXTDEC_CHAR, 1 },
	{ "66\n6", TEXTDEC_CHAR, 2 }, { "+6", TEXTDEC_CHAR, 0 },
};

int
main(void)
{
	char enc[1024];
	uint8_t dec[512], all[256];
	size_t at;
	long n;

	for (size_t i = 0; i < sizeof rfc / sizeof rfc[0]; i++) {
		size_t plen = strlen(rfc[i].plain);
		const char *b = rfc[i].b64, *h = rfc[i].hex;
		char lower[16];

		n = base64_encode((const uint8_t *)rfc[i].plain, plen, enc,
		    sizeof enc);
		ok(n == (long)BASE64_ENCODED_LEN(plen) && strcmp(enc, b) == 0,
		    "BASE64(\"%s\") = \"%s\"", rfc[i].plain, enc);
		n = base64_decode(b, strlen(b), dec, sizeof dec, &at);
		ok(n == (long)plen && memcmp(dec, rfc[i].plain, plen) == 0,
		    "decode \"%s\"", b);
		n = hex_decode(h, strlen(h), dec, sizeof dec, &at);
		ok(n == (long)plen && memcmp(dec, rfc[i].plain, plen) == 0,
		    "BASE16 decode \"%s\"", h);
		for (size_t k = 0; k <= strlen(h); k++)
			lower[k] = h[k] >= 'A' && h[k] <= 'F' ?
			    (char)(h[k] + 32) : h[k];
		n = hex_encode((const uint8_t *)rfc[i].plain, plen, enc,
		    sizeof enc);
		ok(n == (long)HEX_ENCODED_LEN(plen) && strcmp(enc, lower) == 0,
		    "hex_encode \"%s\" (lower case)", enc);
		n = hex_decode(lower, strlen(lower), dec, sizeof dec, &at);
		ok(n == (long)plen && memcmp(dec, rfc[i].plain, plen) == 0,
		    "hex decode \"%s\" (lower case)", lower);
	}
	ok(hex_decode("aBcD", 4, dec, sizeof dec, &at) == 2 &&
	    dec[0] == 0xab && dec[1] == 0xcd, "hex: mixed case taken");
	for (size_t i = 0; i < sizeof all; i++)
		all[i] = (uint8_t)i;
	n = base64_encode(all, sizeof all, enc, sizeof enc);
	ok(n == 344 && base64_decode(enc, (size_t)n, dec, sizeof dec, &at) ==
	    256 && memcmp(dec, all, 256) == 0,
	    "every byte value: base64 both ways");
	n = hex_encode(all, sizeof all, enc, sizeof enc);
	ok(n == 512 && hex_decode(enc, (size_t)n, dec, sizeof dec, &at) ==
	    256 && memcmp(dec, all, 256) == 0,
	    "every byte value: hex both ways");
	/* decoding in place: the gateway decodes where the JSON string
	 * was */
	n = base64_encode(all, sizeof all, enc, sizeof enc);
	ok(base64_decode(enc, (size_t)n, (uint8_t *)enc, sizeof enc, &at) ==
	    256 && memcmp(enc, all, 256) == 0, "base64: in place");
	n = hex_encode(all, sizeof all, enc, sizeof enc);
	ok(hex_decode(enc, (size_t)n, (uint8_t *)enc, sizeof enc, &at) ==
	    256 && memcmp(enc, all, 256) == 0, "hex: in place");
	for (size_t i = 0; i < sizeof bad64 / sizeof bad64[0]; i++) {
		n = base64_decode(bad64[i].in, strlen(bad64[i].in), dec,
		    sizeof dec, &at);
		ok(n == bad64[i].why && at == bad64[i].at,
		    "base64 refuses case %zu: %s at %zu (got %ld at %zu)", i,
		    textdec_why(bad64[i].why), bad64[i].at, n, at);
	}
	ok(base64_decode("Zm9v\0\0\0\0", 8, dec, sizeof dec, &at) ==
	    TEXTDEC_CHAR && at == 4, "base64 refuses NUL bytes");
	ok(hex_decode("66\0\0", 4, dec, sizeof dec, &at) == TEXTDEC_CHAR &&
	    at == 2, "hex refuses NUL bytes");
	for (size_t i = 0; i < sizeof badhex / sizeof badhex[0]; i++) {
		n = hex_decode(badhex[i].in, strlen(badhex[i].in), dec,
		    sizeof dec, &at);
		ok(n == badhex[i].why && at == badhex[i].at,
		    "hex refuses case %zu: %s at %zu", i,
		    textdec_why(badhex[i].why), badhex[i].at);
	}
	/* room: checked from the length alone, before any byte is written */
	memset(dec, 0xee, sizeof dec);
	ok(base64_decode("Zm9vYmFy", 8, dec, 5, &at) == TEXTDEC_ROOM &&
	    dec[0] == 0xee, "base64: one byte short is refused, nothing written");
	ok(base64_decode("Zm9vYmE=", 8, dec, 5, &at) == 5,
	    "base64: exactly the room is enough (padding counted)");
	ok(base64_decode("Zm9vYg==", 8, dec, 3, &at) == TEXTDEC_ROOM,
	    "base64: padded, one byte short");
	ok(hex_decode("666f6f", 6, dec, 2, &at) == TEXTDEC_ROOM &&
	    hex_decode("666f6f", 6, dec, 3, &at) == 3, "hex: the room");
	ok(base64_encode((const uint8_t *)"foo", 3, enc, 4) == -1 &&
	    hex_encode((const uint8_t *)"f", 1, enc, 2) == -1,
	    "the encoders refuse a buffer without room for the NUL");
	ok(base64_decode("", 0, dec, 0, &at) == 0 &&
	    hex_decode("", 0, dec, 0, &at) == 0, "empty decodes to nothing");
	return tap_done();
}
