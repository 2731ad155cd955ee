/* pem_test.c - PEM and P-256 key files: OpenSSL-made keys parse (SEC1,
 * PKCS#8, SubjectPublicKeyInfo), ours round-trip, and everything else is
 * refused: other curves and algorithms, compressed or off-curve points,
 * wrong labels, two objects, broken base64, a private key readable by
 * others. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/b64url.h"
#include "common/policy/eckey.h"
#include "common/policy/pem.h"
#include "tap.h"
#include "test/helpers/test_key.h"

/* The shared test key in the two other encodings OpenSSL writes; its id
 * computed with openssl dgst. */
static const char pkcs8[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgsD9yTDdBAPh9YLwu\n"
    "+S0zJNqTt89MyU9AJIl4DlgKePyhRANCAASK4bRH4CzGNebrVvrG2a+ceVMqFxlc\n"
    "Myx++XLM+5HETU0Kona8SpyWhYB9FDaiozrhqNMicYrIEXLJMwnJLTwA\n"
    "-----END PRIVATE KEY-----\n";
static const char pub[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEiuG0R+AsxjXm61b6xtmvnHlTKhcZ\n"
    "XDMsfvlyzPuRxE1NCqJ2vEqcloWAfRQ2oqM64ajTInGKyBFyyTMJyS08AA==\n"
    "-----END PUBLIC KEY-----\n";
static const char key_id[] = "PI197_--o0j653v-R1j8Pg";

static const char pub_compressed[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgACiuG0R+AsxjXm61b6xtmvnHlTKhcZ\n"
    "XDMsfvlyzPuRxE0=\n"
    "-----END PUBLIC KEY-----\n";
static const char pub_p384[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEgVP82v2em8uAA6jcoexhaWWWRt7EUQXv\n"
    "kceI63EdoqFjPokqYFOn5MZGsRjFgCXOQ/ayuCYP7hEHAq+S7fF636V1TNtuWZKO\n"
    "17EjASvxpzYDguKNRgT4cCtlKvybRtfg\n"
    "-----END PUBLIC KEY-----\n";
static const char pub_rsa[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC/mlC8S8qz0HGLXrXrHS42IFB3\n"
    "NxUJeTDvU5n6hF5iS8I4uJIdlrAZOB8XzEhHaL4icLqvBnCYqnMgsmOZtDqAiZcT\n"
    "hsa4tp6UrE0tjMdpOm6813YRXIFSpiDFZP66pWBkD08aBB1Hm+GObW2LSf5sV7mr\n"
    "2FNZQmvL3HQfyppyswIDAQAB\n"
    "-----END PUBLIC KEY-----\n";
/* pub with the last byte of Y changed: off the curve */
static const char pub_off_curve[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEiuG0R+AsxjXm61b6xtmvnHlTKhcZ\n"
    "XDMsfvlyzPuRxE1NCqJ2vEqcloWAfRQ2oqM64ajTInGKyBFyyTMJyS08AQ==\n"
    "-----END PUBLIC KEY-----\n";

static int
pub_ok(const char *text)
{
	struct eckey_pub k;
	const char *why;

	return eckey_pub_parse(text, strlen(text), &k, &why) == 0;
}

static void
test_pem(void)
{
	uint8_t der[256];
	char out[512];
	size_t n;
	long len;

	ok(pem_decode(pub, strlen(pub), "PUBLIC KEY", der, sizeof der, &n) ==
	    PEM_OK && n == 91, "a P-256 SubjectPublicKeyInfo is 91 bytes");
	ok(pem_decode(pub, strlen(pub) - 1, "PUBLIC KEY", der, sizeof der,
	    &n) == PEM_OK, "no newline after the END line is fine");
	ok(pem_decode(pub, strlen(pub), "PRIVATE KEY", der, sizeof der, &n) ==
	    PEM_LABEL, "another label is refused");
	ok(pem_decode(pub, 60, "PUBLIC KEY", der, sizeof der, &n) ==
	    PEM_SYNTAX, "an object without its END line is refused");
	ok(pem_decode("hello\n", 6, "PUBLIC KEY", der, sizeof der, &n) ==
	    PEM_NONE, "text without an object is refused");
	ok(pem_decode(pub, strlen(pub), "PUBLIC KEY", der, 90, &n) ==
	    PEM_TOO_BIG, "an object over the cap is refused");
	snprintf(out, sizeof out, "%s%s", pub, pub);
	ok(pem_decode(out, strlen(out), "PUBLIC KEY", der, sizeof der, &n) ==
	    PEM_MULTIPLE, "two objects are refused");
	snprintf(out, sizeof out, "%s", pub);
	out[40] = '!';
	ok(pem_decode(out, strlen(out), "PUBLIC KEY", der, sizeof der, &n) ==
	    PEM_SYNTAX, "a character outside base64 is refused");
	len = pem_encode((const uint8_t *)"abc", 3, "X", out, sizeof out);
	ok(len > 0 && strcmp(out, "-----BEGIN X-----\nYWJj\n-----END X-----\n")
	    == 0, "encode writes BEGIN, base64, END");
	ok(pem_encode((const uint8_t *)"abc", 3, "X", out, (size_t)len) == -1,
	    "encode refuses a buffer without room for the NUL");
}

static void
test_openssl_keys(void)
{
	struct eckey_priv a, b;
	struct eckey_pub p;
	char id[ECKEY_ID_TEXT], out[512];
	const char *why;

	ok(eckey_pub_parse(pub, strlen(pub), &p, &why) == 0,
	    "OpenSSL public key parses");
	eckey_id_text(p.id, id);
	ok(strcmp(id, key_id) == 0, "key id is SHA-256(point)[0..16) in "
	    "base64url (%s)", id);
	ok(eckey_priv_parse(test_key_sec1, strlen(test_key_sec1), &a,
	    &why) == 0 && memcmp(a.pub.point, p.point, sizeof p.point) == 0,
	    "OpenSSL SEC1 private key parses and matches its public key");
	ok(eckey_priv_parse(pkcs8, strlen(pkcs8), &b, &why) == 0 &&
	    memcmp(a.x, b.x, sizeof a.x) == 0, "PKCS#8 gives the same key");
	ok(eckey_pub_pem(&a.pub, out, sizeof out) > 0 && strcmp(out, pub) ==
	    0, "our public PEM is byte-identical to OpenSSL's");
	ok(eckey_priv_pem(&a, out, sizeof out) > 0 &&
	    strcmp(out, test_key_sec1) == 0,
	    "our SEC1 private PEM is byte-identical to OpenSSL's");
	ok(!pub_ok(pub_compressed), "a compressed point is refused");
	ok(!pub_ok(pub_p384), "a P-384 key is refused");
	ok(!pub_ok(pub_rsa), "an RSA key is refused");
	ok(!pub_ok(pub_off_curve), "a point off the curve is refused");
	ok(!pub_ok(test_key_sec1), "a private key is not a public key");
	ok(eckey_priv_parse(pub, strlen(pub), &b, &why) != 0,
	    "a public key is not a private key");
	eckey_wipe(&a);
	eckey_wipe(&b);
}

static void
test_generate_sign(void)
{
	struct eckey_priv k, k2;
	struct eckey_pub p;
	uint8_t hash[ECKEY_HASH_LEN] = { 1, 2, 3 }, sig[ECKEY_SIG_LEN];
	char text[512];
	const char *why;

	ok(eckey_generate(&k, &why) == 0, "generate a key pair");
	ok(eckey_generate(&k2, &why) == 0 && memcmp(k.x, k2.x, sizeof k.x),
	    "two generated keys differ");
	ok(eckey_priv_pem(&k, text, sizeof text) > 0 &&
	    eckey_priv_parse(text, strlen(text), &k2, &why) == 0 &&
	    memcmp(k.x, k2.x, sizeof k.x) == 0, "private PEM round-trips");
	ok(eckey_pub_pem(&k.pub, text, sizeof text) > 0 &&
	    eckey_pub_parse(text, strlen(text), &p, &why) == 0 &&
	    memcmp(p.id, k.pub.id, sizeof p.id) == 0, "public PEM round-trips");
	ok(eckey_sign(&k, hash, sig) == 0 && eckey_verify(&p, hash, sig),
	    "a signature verifies");
	hash[0] ^= 1;
	ok(!eckey_verify(&p, hash, sig), "another hash does not verify");
	eckey_wipe(&k);
	eckey_wipe(&k2);
}

static void
test_files(void)
{
	char dir[] = "/tmp/pem_test.XXXXXX", path[64];
	struct eckey_priv k;
	struct eckey_pub p;
	uint8_t id[ECKEY_ID_LEN];
	struct stat st;
	const char *why;

	if (!mkdtemp(dir)) {
		tap_skip("key files", "mkdtemp failed");
		return;
	}
	ok(eckey_write_pair(dir, id, &why) == 0, "write a key pair");
	snprintf(path, sizeof path, "%s/review.key", dir);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600,
	    "the private key file is 0600");
	ok(eckey_priv_load(path, &k, &why) == 0 &&
	    memcmp(k.pub.id, id, sizeof id) == 0, "it loads back");
	ok(eckey_write_pair(dir, id, &why) == -2, "a second keygen refuses "
	    "to overwrite");
	chmod(path, 0640);
	ok(eckey_priv_load(path, &k, &why) == -1 && strstr(why, "chmod 600"),
	    "a private key readable by the group is refused");
	unlink(path);
	snprintf(path, sizeof path, "%s/review.pub", dir);
	ok(eckey_pub_load(path, &p, &why) == 0 &&
	    memcmp(p.id, id, sizeof id) == 0, "the public key loads");
	unlink(path);
	rmdir(dir);
	eckey_wipe(&k);
}

int
main(void)
{
	test_pem();
	test_openssl_keys();
	test_generate_sign();
	test_files();
	return tap_done();
}
