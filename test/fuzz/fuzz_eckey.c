/* fuzz_eckey.c - the key DER eckey parses itself, under arbitrary bytes
 * (fuzz_pem.c reaches it only through base64; here the DER is the input):
 * a public key (SubjectPublicKeyInfo) and a private key (SEC1 or PKCS#8)
 * from the same bytes. Invariants: an accepted public key is exactly the
 * bytes we would write for it (strict DER: one spelling) and reads back
 * the same through PEM; a refused one leaves the key untouched and says
 * why; an accepted private key has an on-curve public point, writes back
 * as SEC1 that reads back the same, and its public half round-trips; a
 * refused one leaves the key wiped. */
#include <string.h>

#include "common/policy/eckey.h"
#include "common/policy/pem.h"
#include "common/base/secmem.h"
#include "fuzz.h"

/* k reads back identically from its own PEM; der (if not NULL, len
 * bytes) is exactly the DER that PEM holds. */
static void
pub_round_trip(const struct eckey_pub *k, const uint8_t *der, size_t len)
{
	struct eckey_pub again;
	uint8_t back[512];
	char pem[512];
	const char *why = NULL;
	size_t n;
	long plen = eckey_pub_pem(k, pem, sizeof pem);

	FUZZ_ASSERT(plen > 0);
	FUZZ_ASSERT(pem_decode(pem, (size_t)plen, "PUBLIC KEY", back,
	    sizeof back, &n) == PEM_OK);
	if (der)
		FUZZ_ASSERT(n == len && memcmp(back, der, len) == 0);
	FUZZ_ASSERT(eckey_pub_from_der(back, n, &again, &why) == 0);
	FUZZ_ASSERT(memcmp(&again, k, sizeof again) == 0);
	FUZZ_ASSERT(eckey_pub_parse(pem, (size_t)plen, &again, &why) == 0);
	FUZZ_ASSERT(memcmp(&again, k, sizeof again) == 0);
}

static void
check_pub(const uint8_t *data, size_t size)
{
	struct eckey_pub k, before;
	const char *why = NULL;

	memset(&k, 0xa5, sizeof k);
	before = k;
	if (eckey_pub_from_der(data, size, &k, &why) != 0) {
		FUZZ_ASSERT(why && why[0]);
		FUZZ_ASSERT(memcmp(&k, &before, sizeof k) == 0);
		return;
	}
	FUZZ_ASSERT(k.point[0] == 0x04);
	pub_round_trip(&k, data, size);
}

static void
check_priv(const uint8_t *data, size_t size)
{
	struct eckey_priv k, again;
	char pem[1024];
	const char *why = NULL;
	long plen;

	memset(&k, 0xa5, sizeof k);
	if (eckey_priv_from_der(data, size, &k, &why) != 0) {
		FUZZ_ASSERT(why && why[0]);
		FUZZ_ASSERT(ct_is_zero(&k, sizeof k));
		return;
	}
	FUZZ_ASSERT(!ct_is_zero(k.x, sizeof k.x) && k.pub.point[0] == 0x04);
	plen = eckey_priv_pem(&k, pem, sizeof pem);
	FUZZ_ASSERT(plen > 0);
	FUZZ_ASSERT(eckey_priv_parse(pem, (size_t)plen, &again, &why) == 0);
	FUZZ_ASSERT(memcmp(&again, &k, sizeof k) == 0);
	pub_round_trip(&k.pub, NULL, 0);
	eckey_wipe(&k);
	eckey_wipe(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_pub(data, size);
	check_priv(data, size);
	return 0;
}
