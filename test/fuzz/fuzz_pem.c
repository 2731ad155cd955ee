/* fuzz_pem.c - PEM and key DER under arbitrary bytes: public and private
 * key parsing never crash, and an accepted public key re-encodes to PEM
 * that parses to the same point. */
#include <string.h>

#include "common/policy/eckey.h"
#include "common/policy/pem.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t der[4096];
	struct eckey_pub pub, again;
	struct eckey_priv priv;
	char pem[512];
	const char *why;
	size_t n;

	if (pem_decode((const char *)data, size, "PUBLIC KEY", der,
	    sizeof der, &n) == PEM_OK)
		FUZZ_ASSERT(n <= sizeof der);
	if (eckey_pub_parse((const char *)data, size, &pub, &why) == 0) {
		FUZZ_ASSERT(eckey_pub_pem(&pub, pem, sizeof pem) > 0);
		FUZZ_ASSERT(eckey_pub_parse(pem, strlen(pem), &again, &why) ==
		    0 && memcmp(pub.point, again.point, sizeof pub.point) == 0);
	}
	if (eckey_priv_parse((const char *)data, size, &priv, &why) == 0)
		FUZZ_ASSERT(priv.pub.point[0] == 0x04);
	eckey_wipe(&priv);
	return 0;
}
