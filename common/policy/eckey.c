/* eckey.c - P-256 keys with BearSSL: the DER around them is parsed here,
 * strictly (public) or by BearSSL's key decoder (private). */
#include "common/policy/eckey.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bearssl_ec.h>
#include <bearssl_hash.h>
#include <bearssl_rand.h>
#include <bearssl_x509.h>

#include "common/base/b64url.h"
#include "common/base/fileio.h"
#include "common/policy/pem.h"
#include "common/base/bounded_rw.h"
#include "common/base/secmem.h"

#define LABEL_PUB "PUBLIC KEY"
#define LABEL_SEC1 "EC PRIVATE KEY"
#define LABEL_PKCS8 "PRIVATE KEY"
#define DER_MAX 512		/* a P-256 key in any form is far smaller */

/* SubjectPublicKeyInfo for P-256 is one fixed header and the point:
 * SEQUENCE { SEQUENCE { OID id-ecPublicKey, OID prime256v1 },
 *            BIT STRING (0 unused bits) { 04 || X || Y } } */
static const uint8_t oid_ec_public_key[] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };
static const uint8_t oid_p256[] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t spki_header[] = {
	0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01,
	0x07, 0x03, 0x42, 0x00 };

/* The group order n: a private scalar must be in [1, n). */
static const uint8_t p256_order[ECKEY_SCALAR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84,
	0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51 };

static int
fail(const char **why, const char *msg)
{
	*why = msg;
	return -1;
}

/* One DER TLV with the expected tag; definite, minimal length only. */
static int
der_take(struct rd *r, uint8_t tag, struct rd *content)
{
	const uint8_t *b;
	uint8_t t, l0, l1;
	size_t len;

	if (rd_u8(r, &t) || t != tag || rd_u8(r, &l0))
		return -1;
	if (l0 < 0x80) {
		len = l0;
	} else if (l0 == 0x81) {
		if (rd_u8(r, &l1) || l1 < 0x80)
			return -1;
		len = l1;
	} else {
		return -1;	/* DER_MAX never needs two length bytes */
	}
	if (rd_bytes(r, len, &b))
		return -1;
	*content = rd_init(b, len);
	return 0;
}

static int
der_oid_is(struct rd *r, const uint8_t *oid, size_t n)
{
	struct rd c;

	return der_take(r, 0x06, &c) == 0 && c.len == n &&
	    memcmp(c.p, oid, n) == 0;
}

static void
key_id(struct eckey_pub *k)
{
	br_sha256_context h;
	uint8_t out[br_sha256_SIZE];

	br_sha256_init(&h);
	br_sha256_update(&h, k->point, sizeof k->point);
	br_sha256_out(&h, out);
	memcpy(k->id, out, sizeof k->id);
}

/* A point BearSSL accepts as a multiplicand is on the curve and not the
 * point at infinity; multiplying by 1 checks exactly that. */
static int
point_valid(const uint8_t point[ECKEY_POINT_LEN])
{
	uint8_t tmp[ECKEY_POINT_LEN];
	static const uint8_t one = 1;

	memcpy(tmp, point, sizeof tmp);
	return tmp[0] == 0x04 && br_ec_p256_m31.mul(tmp, sizeof tmp, &one, 1,
	    BR_EC_secp256r1) == 1;
}

/* 1 when 0 < x < n, in time independent of x. */
static int
scalar_valid(const uint8_t x[ECKEY_SCALAR_LEN])
{
	unsigned borrow = 0, nonzero = 0;

	for (size_t i = ECKEY_SCALAR_LEN; i-- > 0;) {
		unsigned d = (unsigned)x[i] - p256_order[i] - borrow;

		borrow = (d >> 8) & 1;
		nonzero |= x[i];
	}
	return borrow == 1 && nonzero != 0;
}

static int
pub_from_priv(struct eckey_priv *k)
{
	br_ec_private_key sk = { BR_EC_secp256r1, k->x, sizeof k->x };

	if (br_ec_compute_pub(&br_ec_p256_m31, NULL, k->pub.point, &sk) !=
	    ECKEY_POINT_LEN)
		return -1;
	key_id(&k->pub);
	return 0;
}

int
eckey_generate(struct eckey_priv *k, const char **why)
{
	br_hmac_drbg_context drbg;
	br_ec_private_key sk;
	uint8_t seed[48], kbuf[BR_EC_KBUF_PRIV_MAX_SIZE];
	size_t got = 0;
	int rc = -1;

	while (got < sizeof seed) {
		ssize_t r = getrandom(seed + got, sizeof seed - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*why = "getrandom failed";
			goto out;
		}
		got += (size_t)r;
	}
	br_hmac_drbg_init(&drbg, &br_sha256_vtable, seed, sizeof seed);
	if (br_ec_keygen(&drbg.vtable, &br_ec_p256_m31, &sk, kbuf,
	    BR_EC_secp256r1) != ECKEY_SCALAR_LEN) {
		*why = "key generation failed";
		goto out;
	}
	memcpy(k->x, kbuf, sizeof k->x);
	if (!scalar_valid(k->x) || pub_from_priv(k) != 0) {
		*why = "key generation produced an invalid key";
		goto out;
	}
	rc = 0;
out:
	secure_wipe(seed, sizeof seed);
	secure_wipe(kbuf, sizeof kbuf);
	secure_wipe(&drbg, sizeof drbg);
	if (rc != 0)
		eckey_wipe(k);
	return rc;
}

int
eckey_pub_from_der(const uint8_t *der, size_t len, struct eckey_pub *k,
    const char **why)
{
	struct rd r = rd_init(der, len), spki, alg, bits;
	uint8_t point[ECKEY_POINT_LEN];
	const uint8_t *b;

	if (der_take(&r, 0x30, &spki) || !rd_done(&r) ||
	    der_take(&spki, 0x30, &alg))
		return fail(why, "public key DER is malformed");
	if (!der_oid_is(&alg, oid_ec_public_key, sizeof oid_ec_public_key))
		return fail(why, "public key is not an EC key");
	if (!der_oid_is(&alg, oid_p256, sizeof oid_p256) || !rd_done(&alg))
		return fail(why, "public key is not on curve P-256");
	if (der_take(&spki, 0x03, &bits) || !rd_done(&spki) ||
	    bits.len != 1 + ECKEY_POINT_LEN || rd_bytes(&bits, 1, &b) ||
	    b[0] != 0 || rd_bytes(&bits, ECKEY_POINT_LEN, &b))
		return fail(why, "public key DER is malformed");
	memcpy(point, b, ECKEY_POINT_LEN);
	if (!point_valid(point))
		return fail(why, "public key is not a valid uncompressed "
		    "P-256 point");
	memcpy(k->point, point, ECKEY_POINT_LEN);
	key_id(k);
	return 0;
}

/* The DER of text's one PEM object, labelled one of labels (tried in
 * order), into der: its length, or -1 and *why (other_label when the
 * object is labelled otherwise). */
static long
pem_der(const char *text, size_t len, const char *const *labels,
    uint8_t der[DER_MAX], const char *other_label, const char **why)
{
	enum pem_status st = PEM_LABEL;
	size_t n = 0;

	for (; *labels && st == PEM_LABEL; labels++)
		st = pem_decode(text, len, *labels, der, DER_MAX, &n);
	if (st == PEM_OK)
		return (long)n;
	return fail(why, st == PEM_LABEL ? other_label : pem_status_text(st));
}

int
eckey_pub_parse(const char *text, size_t len, struct eckey_pub *k,
    const char **why)
{
	static const char *const labels[] = { LABEL_PUB, NULL };
	uint8_t der[DER_MAX];
	long n = pem_der(text, len, labels, der, "not a PEM \"PUBLIC KEY\" "
	    "(give the public key file)", why);

	return n < 0 ? -1 : eckey_pub_from_der(der, (size_t)n, k, why);
}

int
eckey_priv_from_der(const uint8_t *der, size_t len, struct eckey_priv *k,
    const char **why)
{
	br_skey_decoder_context dc;
	const br_ec_private_key *sk;
	int rc = -1;

	br_skey_decoder_init(&dc);
	br_skey_decoder_push(&dc, der, len);
	if (br_skey_decoder_last_error(&dc) != 0 ||
	    !(sk = br_skey_decoder_get_ec(&dc))) {
		*why = "private key DER is malformed or not an EC key";
		goto out;
	}
	if (sk->curve != BR_EC_secp256r1 || sk->xlen == 0 ||
	    sk->xlen > ECKEY_SCALAR_LEN) {
		*why = "private key is not on curve P-256";
		goto out;
	}
	memset(k->x, 0, sizeof k->x);
	memcpy(k->x + sizeof k->x - sk->xlen, sk->x, sk->xlen);
	if (!scalar_valid(k->x) || pub_from_priv(k) != 0) {
		*why = "private key is out of range";
		goto out;
	}
	rc = 0;
out:
	secure_wipe(&dc, sizeof dc);
	if (rc != 0)
		eckey_wipe(k);
	return rc;
}

int
eckey_priv_parse(const char *text, size_t len, struct eckey_priv *k,
    const char **why)
{
	static const char *const labels[] = { LABEL_SEC1, LABEL_PKCS8, NULL };
	uint8_t der[DER_MAX];
	long n = pem_der(text, len, labels, der, "not a PEM \"EC PRIVATE KEY\" "
	    "or \"PRIVATE KEY\"", why);
	int rc = -1;

	if (n >= 0)
		rc = eckey_priv_from_der(der, (size_t)n, k, why);
	else
		eckey_wipe(k);
	secure_wipe(der, sizeof der);
	return rc;
}

int
eckey_pub_load(const char *path, struct eckey_pub *k, const char **why)
{
	uint8_t *buf;
	size_t n;
	int rc;

	if (file_read(path, ECKEY_PEM_MAX, &buf, &n) != 0)
		return fail(why, errno == EFBIG ? "public key file too large" :
		    "cannot read public key file");
	rc = eckey_pub_parse((const char *)buf, n, k, why);
	free(buf);
	return rc;
}

int
eckey_priv_load(const char *path, struct eckey_priv *k, const char **why)
{
	struct stat st;
	uint8_t *buf;
	size_t n;
	int rc;

	if (stat(path, &st) != 0)
		return fail(why, "cannot read private key file");
	if (st.st_mode & 077)
		return fail(why, "private key file is accessible by group or "
		    "others (chmod 600 it)");
	if (file_read(path, ECKEY_PEM_MAX, &buf, &n) != 0)
		return fail(why, errno == EFBIG ? "private key file too large" :
		    "cannot read private key file");
	rc = eckey_priv_parse((const char *)buf, n, k, why);
	secure_wipe(buf, n);
	free(buf);
	return rc;
}

long
eckey_pub_pem(const struct eckey_pub *k, char *out, size_t cap)
{
	uint8_t der[sizeof spki_header + ECKEY_POINT_LEN];

	memcpy(der, spki_header, sizeof spki_header);
	memcpy(der + sizeof spki_header, k->point, ECKEY_POINT_LEN);
	return pem_encode(der, sizeof der, LABEL_PUB, out, cap);
}

long
eckey_priv_pem(const struct eckey_priv *k, char *out, size_t cap)
{
	uint8_t x[ECKEY_SCALAR_LEN], q[ECKEY_POINT_LEN], der[DER_MAX];
	br_ec_private_key sk = { BR_EC_secp256r1, x, sizeof x };
	br_ec_public_key pk = { BR_EC_secp256r1, q, sizeof q };
	size_t n;
	long rc = -1;

	memcpy(x, k->x, sizeof x);
	memcpy(q, k->pub.point, sizeof q);
	n = br_encode_ec_raw_der(NULL, &sk, &pk);
	if (n > 0 && n <= sizeof der && br_encode_ec_raw_der(der, &sk, &pk) ==
	    n)
		rc = pem_encode(der, n, LABEL_SEC1, out, cap);
	secure_wipe(x, sizeof x);
	secure_wipe(der, sizeof der);
	return rc;
}

int
eckey_write_pair(const char *dir, uint8_t id[ECKEY_ID_LEN], const char **why)
{
	char priv_path[PATH_MAX], pub_path[PATH_MAX], pem[1024];
	struct eckey_priv k;
	int rc = -1;
	long n;

	if ((size_t)snprintf(priv_path, sizeof priv_path, "%s/review.key",
	    dir) >= sizeof priv_path || (size_t)snprintf(pub_path,
	    sizeof pub_path, "%s/review.pub", dir) >= sizeof pub_path)
		return fail(why, "path too long");
	/* Check both first, so a refusal creates nothing; file_create's
	 * O_EXCL still settles a race. */
	if (access(priv_path, F_OK) == 0 || access(pub_path, F_OK) == 0) {
		*why = "refusing to overwrite review.key or review.pub";
		return -2;
	}
	if (eckey_generate(&k, why) != 0)
		return -1;
	if ((n = eckey_priv_pem(&k, pem, sizeof pem)) < 0) {
		*why = "cannot encode the private key";
		goto out;
	}
	if (file_create(priv_path, pem, (size_t)n, 0600) != 0) {
		*why = errno == EEXIST ? "refusing to overwrite review.key" :
		    "cannot create review.key";
		rc = errno == EEXIST ? -2 : -1;
		goto out;
	}
	if ((n = eckey_pub_pem(&k.pub, pem, sizeof pem)) < 0 ||
	    file_create(pub_path, pem, (size_t)n, 0644) != 0) {
		*why = errno == EEXIST ? "refusing to overwrite review.pub" :
		    "cannot create review.pub";
		rc = errno == EEXIST ? -2 : -1;
		unlink(priv_path);
		goto out;
	}
	memcpy(id, k.pub.id, ECKEY_ID_LEN);
	rc = 0;
out:
	secure_wipe(pem, sizeof pem);
	eckey_wipe(&k);
	return rc;
}

void
eckey_id_text(const uint8_t id[ECKEY_ID_LEN], char out[ECKEY_ID_TEXT])
{
	if (b64url_encode(id, ECKEY_ID_LEN, out, ECKEY_ID_TEXT) < 0)
		out[0] = '\0';
}

void
eckey_context_hash(const char *context, const void *msg, size_t n,
    uint8_t out[ECKEY_HASH_LEN])
{
	br_sha256_context h;

	br_sha256_init(&h);
	br_sha256_update(&h, context, strlen(context) + 1);
	br_sha256_update(&h, msg, n);
	br_sha256_out(&h, out);
}

int
eckey_sign(const struct eckey_priv *k, const uint8_t hash[ECKEY_HASH_LEN],
    uint8_t sig[ECKEY_SIG_LEN])
{
	uint8_t x[ECKEY_SCALAR_LEN];
	br_ec_private_key sk = { BR_EC_secp256r1, x, sizeof x };
	size_t n;

	memcpy(x, k->x, sizeof x);
	n = br_ecdsa_i31_sign_raw(&br_ec_p256_m31, &br_sha256_vtable, hash,
	    &sk, sig);
	secure_wipe(x, sizeof x);
	return n == ECKEY_SIG_LEN ? 0 : -1;
}

int
eckey_verify(const struct eckey_pub *k, const uint8_t hash[ECKEY_HASH_LEN],
    const uint8_t sig[ECKEY_SIG_LEN])
{
	uint8_t q[ECKEY_POINT_LEN];
	br_ec_public_key pk = { BR_EC_secp256r1, q, sizeof q };

	memcpy(q, k->point, sizeof q);
	return br_ecdsa_i31_vrfy_raw(&br_ec_p256_m31, hash, ECKEY_HASH_LEN,
	    &pk, sig, ECKEY_SIG_LEN) == 1;
}

void
eckey_wipe(struct eckey_priv *k)
{
	secure_wipe(k, sizeof *k);
}
