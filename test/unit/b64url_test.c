/* b64url_test.c - RFC 4648 vectors (url alphabet, no padding), strictness. */
#include <string.h>

#include "common/base/b64url.h"
#include "tap.h"

static const struct {
	const char *plain, *enc;
} vectors[] = {
	{ "", "" }, { "f", "Zg" }, { "fo", "Zm8" }, { "foo", "Zm9v" },
	{ "foob", "Zm9vYg" }, { "fooba", "Zm9vYmE" }, { "foobar", "Zm9vYmFy" },
	{ "\xfb\xff", "-_8" }, { "\xff\xff\xfe", "___-" },
};

static const char *const rejected[] = {
	"Zg==", "Z", "Zh", "Zm9", "Zm9v!", "Zm+v", "Zm/v", "Zm 9", "Zm9vY",
};

int
main(void)
{
	char enc[64];
	uint8_t dec[64];
	long n;

	for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
		size_t plen = strlen(vectors[i].plain);

		n = b64url_encode((const uint8_t *)vectors[i].plain, plen, enc,
		    sizeof enc);
		ok(n >= 0 && strcmp(enc, vectors[i].enc) == 0 &&
		    (size_t)n == B64URL_ENCODED_LEN(plen),
		    "encode '%s' -> '%s'", vectors[i].enc, enc);
		n = b64url_decode(vectors[i].enc, strlen(vectors[i].enc), dec,
		    sizeof dec);
		ok(n == (long)plen && memcmp(dec, vectors[i].plain, plen) == 0,
		    "decode '%s'", vectors[i].enc);
	}
	for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++)
		ok(b64url_decode(rejected[i], strlen(rejected[i]), dec,
		    sizeof dec) == -1, "reject '%s'", rejected[i]);
	ok(b64url_encode((const uint8_t *)"foo", 3, enc, 4) == -1,
	    "encode refuses a buffer without room for the NUL");
	ok(b64url_decode("Zm9vYmFy", 8, dec, 5) == -1,
	    "decode refuses a buffer one byte short");
	return tap_done();
}
