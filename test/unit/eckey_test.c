/* eckey_test.c - the key DER on its own (eckey_pub_from_der,
 * eckey_priv_from_der), below the PEM layer pem_test.c covers: the
 * OpenSSL-made key's three encodings, and the edges of strict DER
 * (trailing bytes, truncation, long or indefinite lengths, unused bits,
 * other algorithms and curves, bad points) and of the scalar range
 * (0, 1, n - 1, n). A refused public key leaves the caller's key
 * untouched, a refused private key leaves it wiped. */
#include <stdio.h>
#include <string.h>

#include "common/policy/eckey.h"
#include "common/base/secmem.h"
#include "tap.h"

/* The key of test/helpers/test_key.h (openssl ecparam -name prime256v1
 * -genkey), as DER: SEC1, PKCS#8, SubjectPublicKeyInfo; and the P-256
 * group order n. */
static uint8_t sec1[121], pkcs8[138], spki[91], order[ECKEY_SCALAR_LEN];

#define SPKI_POINT 26		/* offset of 04 || X || Y in spki */
#define SEC1_X 7		/* offset of the scalar in sec1 */

static uint8_t buf[256];
static const char *why;

/* eckey_pub_from_der on buf[0..n): 1 when refused with msg and the key
 * left untouched. */
static int
pub_refused(size_t n, const char *msg)
{
	struct eckey_pub k, before;

	memset(&k, 0xa5, sizeof k);
	before = k;
	why = NULL;
	return eckey_pub_from_der(buf, n, &k, &why) == -1 && why &&
	    strcmp(why, msg) == 0 && memcmp(&k, &before, sizeof k) == 0;
}

static int
priv_refused(const uint8_t *der, size_t n, const char *msg)
{
	struct eckey_priv k;

	memset(&k, 0xa5, sizeof k);
	why = NULL;
	return eckey_priv_from_der(der, n, &k, &why) == -1 && why &&
	    strcmp(why, msg) == 0 && ct_is_zero(&k, sizeof k);
}

static void
test_pub(void)
{
	static const char *const malformed = "public key DER is malformed";
	struct eckey_pub k;

	ok(eckey_pub_from_der(spki, sizeof spki, &k, &why) == 0 &&
	    memcmp(k.point, spki + SPKI_POINT, ECKEY_POINT_LEN) == 0,
	    "the OpenSSL SubjectPublicKeyInfo is accepted");
	memcpy(buf, spki, sizeof spki);
	buf[sizeof spki] = 0;
	ok(pub_refused(sizeof spki + 1, malformed), "a trailing byte is "
	    "refused, the key untouched");
	ok(pub_refused(sizeof spki - 1, malformed), "one byte short");
	ok(pub_refused(0, malformed), "no bytes");
	/* 30 81 59: the right length in a non-minimal long form */
	buf[0] = 0x30;
	buf[1] = 0x81;
	buf[2] = 0x59;
	memcpy(buf + 3, spki + 2, sizeof spki - 2);
	ok(pub_refused(sizeof spki + 1, malformed), "a long-form length "
	    "under 128 is refused (DER has one spelling)");
	buf[1] = 0x80;
	ok(pub_refused(sizeof spki + 1, malformed), "an indefinite length "
	    "is refused");
	memcpy(buf, spki, sizeof spki);
	buf[SPKI_POINT - 1] = 1;
	ok(pub_refused(sizeof spki, malformed), "a BIT STRING with unused "
	    "bits is refused");
	memcpy(buf, spki, sizeof spki);
	buf[12] ^= 1;		/* id-ecPublicKey's last byte */
	ok(pub_refused(sizeof spki, "public key is not an EC key"),
	    "another algorithm OID");
	memcpy(buf, spki, sizeof spki);
	buf[22] ^= 1;		/* prime256v1's last byte */
	ok(pub_refused(sizeof spki, "public key is not on curve P-256"),
	    "another curve OID");
	memcpy(buf, spki, sizeof spki);
	buf[SPKI_POINT] = 0x02;
	ok(pub_refused(sizeof spki, "public key is not a valid uncompressed "
	    "P-256 point"), "a compressed-point prefix with 64 bytes");
	memcpy(buf, spki, sizeof spki);
	memset(buf + SPKI_POINT + 1, 0, ECKEY_POINT_LEN - 1);
	ok(pub_refused(sizeof spki, "public key is not a valid uncompressed "
	    "P-256 point"), "the point (0, 0)");
	memcpy(buf, spki, sizeof spki);
	buf[sizeof spki - 1] ^= 1;
	ok(pub_refused(sizeof spki, "public key is not a valid uncompressed "
	    "P-256 point"), "a point off the curve, and the key untouched");
}

static void
test_priv(void)
{
	static const char *const range = "private key is out of range";
	static const char *const malformed = "private key DER is malformed or "
	    "not an EC key";
	struct eckey_priv a, b;
	/* SEC1 with the curve P-384 named and a 32-byte scalar */
	uint8_t p384[48] = { 0x30, 0x2e, 0x02, 0x01, 0x01, 0x04, 0x20 };
	static const uint8_t p384_oid[] = { 0xa0, 0x07, 0x06, 0x05, 0x2b,
		0x81, 0x04, 0x00, 0x22 };

	ok(eckey_priv_from_der(sec1, sizeof sec1, &a, &why) == 0 &&
	    memcmp(a.x, sec1 + SEC1_X, sizeof a.x) == 0 &&
	    memcmp(a.pub.point, spki + SPKI_POINT, ECKEY_POINT_LEN) == 0,
	    "SEC1 is accepted and its public point derived");
	ok(eckey_priv_from_der(pkcs8, sizeof pkcs8, &b, &why) == 0 &&
	    memcmp(&a, &b, sizeof a) == 0, "PKCS#8 gives the same key");
	memcpy(buf, sec1, sizeof sec1);
	buf[sizeof sec1] = 0;
	ok(priv_refused(buf, sizeof sec1 + 1, malformed), "a trailing byte "
	    "is refused and the key wiped");
	ok(priv_refused(sec1, sizeof sec1 - 1, malformed), "one byte short");
	ok(priv_refused(spki, sizeof spki, malformed), "a public key is not a "
	    "private key");
	ok(priv_refused(sec1, 0, malformed), "no bytes");

	memcpy(buf, sec1, sizeof sec1);
	memset(buf + SEC1_X, 0, ECKEY_SCALAR_LEN);
	ok(priv_refused(buf, sizeof sec1, range), "the scalar 0");
	memcpy(buf + SEC1_X, order, ECKEY_SCALAR_LEN);
	ok(priv_refused(buf, sizeof sec1, range), "the scalar n");
	memset(buf + SEC1_X, 0xff, ECKEY_SCALAR_LEN);
	ok(priv_refused(buf, sizeof sec1, range), "the scalar 2^256 - 1");
	memcpy(buf + SEC1_X, order, ECKEY_SCALAR_LEN);
	buf[SEC1_X + ECKEY_SCALAR_LEN - 1]--;
	ok(eckey_priv_from_der(buf, sizeof sec1, &b, &why) == 0,
	    "the scalar n - 1 is accepted");
	memset(buf + SEC1_X, 0, ECKEY_SCALAR_LEN);
	buf[SEC1_X + ECKEY_SCALAR_LEN - 1] = 1;
	ok(eckey_priv_from_der(buf, sizeof sec1, &b, &why) == 0 &&
	    b.pub.point[0] == 0x04 && b.pub.point[1] == 0x6b &&
	    b.pub.point[32] == 0x96, "the scalar 1 is accepted: its point is "
	    "the generator (x = 6b17...96)");

	memcpy(p384 + 7, sec1 + SEC1_X, ECKEY_SCALAR_LEN);
	memcpy(p384 + 7 + ECKEY_SCALAR_LEN, p384_oid, sizeof p384_oid);
	ok(priv_refused(p384, sizeof p384, "private key is not on curve "
	    "P-256"), "a key that names curve P-384 is refused");
	eckey_wipe(&a);
	eckey_wipe(&b);
}

static void
test_vectors(void)
{
	ok(tap_unhex(sec1, sizeof sec1,
	    "30770201010420b03f724c374100f87d60bc2ef92d3324da93b7cf4c"
	    "c94f402489780e580a78fca00a06082a8648ce3d030107a144034200"
	    "048ae1b447e02cc635e6eb56fac6d9af9c79532a17195c332c7ef972"
	    "ccfb91c44d4d0aa276bc4a9c9685807d1436a2a33ae1a8d322718ac8"
	    "1172c93309c92d3c00") == 0 &&
	    tap_unhex(pkcs8, sizeof pkcs8,
	    "308187020100301306072a8648ce3d020106082a8648ce3d03010704"
	    "6d306b0201010420b03f724c374100f87d60bc2ef92d3324da93b7cf"
	    "4cc94f402489780e580a78fca144034200048ae1b447e02cc635e6eb"
	    "56fac6d9af9c79532a17195c332c7ef972ccfb91c44d4d0aa276bc4a"
	    "9c9685807d1436a2a33ae1a8d322718ac81172c93309c92d3c00") == 0 &&
	    tap_unhex(spki, sizeof spki,
	    "3059301306072a8648ce3d020106082a8648ce3d030107034200048a"
	    "e1b447e02cc635e6eb56fac6d9af9c79532a17195c332c7ef972ccfb"
	    "91c44d4d0aa276bc4a9c9685807d1436a2a33ae1a8d322718ac81172"
	    "c93309c92d3c00") == 0 &&
	    tap_unhex(order, sizeof order,
	    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2"
	    "fc632551") == 0, "the DER vectors decode");
}

int
main(void)
{
	test_vectors();
	test_pub();
	test_priv();
	return tap_done();
}
