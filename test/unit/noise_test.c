/* noise_test.c - the handshake and transport against the cacophony/snow
 * vectors byte for byte from both sides, then every refusal: wrong psk,
 * other prologue, flipped bits, replayed msg1, calls out of turn, nonce
 * exhaustion, sizes, and wiping. Runs from the top of the tree. */
#include <stdio.h>
#include <string.h>

#include "common/wire/noise.h"
#include "common/base/secmem.h"
#include "tap.h"
#include "test/helpers/noise_pair.h"

#define VECTORS "test/data/noise/noise-vectors-NNpsk0-25519-ChaChaPoly-" \
	"SHA256.json"

/* ---- a purpose-built reader for the vector file --------------------- */

#define VEC_MAX 4
#define VEC_MSG_MAX 8
#define VEC_BYTES_MAX 256

struct blob {
	uint8_t b[VEC_BYTES_MAX];
	size_t len;
	int present;
};

struct vector {
	char name[64];
	struct blob iprologue, rprologue, ipsk, rpsk, ie, re, hash;
	size_t nmsg;
	struct blob payload[VEC_MSG_MAX], ciphertext[VEC_MSG_MAX];
};

struct json {
	const char *p, *end;
	int bad;
};

static struct vector vec[VEC_MAX];
static size_t nvec;

static void
js_ws(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' ||
	    *j->p == '\r' || *j->p == '\t'))
		j->p++;
}

static int
js_eat(struct json *j, char c)
{
	js_ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return 1;
	}
	return 0;
}

/* A string's raw bytes (escapes left as they are; the fields read here
 * are hex and names, which have none). */
static int
js_string(struct json *j, const char **s, size_t *n)
{
	if (!js_eat(j, '"'))
		return j->bad = 1, -1;
	*s = j->p;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p == '\\' && j->end - j->p > 1)
			j->p++;
		j->p++;
	}
	if (j->p >= j->end)
		return j->bad = 1, -1;
	*n = (size_t)(j->p - *s);
	j->p++;
	return 0;
}

/* An object member's key and its ':'; on anything else j is bad, -1. */
static int
js_member(struct json *j, const char **k, size_t *n)
{
	if (js_string(j, k, n) == 0 && js_eat(j, ':'))
		return 0;
	j->bad = 1;
	return -1;
}

static void
js_skip(struct json *j, int depth)
{
	const char *s;
	size_t n;

	js_ws(j);
	if (depth > 16 || j->p >= j->end) {
		j->bad = 1;
		return;
	}
	if (*j->p == '"') {
		js_string(j, &s, &n);
	} else if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';

		j->p++;
		if (js_eat(j, close))
			return;
		do {
			if (close == '}')
				js_member(j, &s, &n);
			js_skip(j, depth + 1);
		} while (!j->bad && js_eat(j, ','));
		if (!js_eat(j, close))
			j->bad = 1;
	} else {
		while (j->p < j->end && *j->p &&
		    strchr("-+.0123456789eEtruefalsn", *j->p))
			j->p++;
	}
}

static void
js_hex(struct json *j, struct blob *b)
{
	const char *s;
	size_t n;

	if (js_string(j, &s, &n) || n % 2 || n / 2 > sizeof b->b ||
	    tap_unhex(b->b, n / 2, s) != 0) {
		j->bad = 1;
		return;
	}
	b->len = n / 2;
	b->present = 1;
}

static int
key_is(const char *k, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(k, want, n) == 0;
}

/* "init_psks": [] or [ "hex" ]; more than one psk is not NNpsk0. */
static void
js_psks(struct json *j, struct blob *b)
{
	if (!js_eat(j, '[')) {
		j->bad = 1;
		return;
	}
	if (js_eat(j, ']'))
		return;
	js_hex(j, b);
	if (!js_eat(j, ']'))
		j->bad = 1;
}

static void
js_messages(struct json *j, struct vector *v)
{
	const char *k;
	size_t n;

	if (!js_eat(j, '['))
		j->bad = 1;
	do {
		if (j->bad || v->nmsg == VEC_MSG_MAX || !js_eat(j, '{')) {
			j->bad = 1;
			return;
		}
		do {
			if (js_member(j, &k, &n) != 0)
				return;
			if (key_is(k, n, "payload"))
				js_hex(j, &v->payload[v->nmsg]);
			else if (key_is(k, n, "ciphertext"))
				js_hex(j, &v->ciphertext[v->nmsg]);
			else
				js_skip(j, 2);
		} while (!j->bad && js_eat(j, ','));
		if (!js_eat(j, '}'))
			j->bad = 1;
		v->nmsg++;
	} while (!j->bad && js_eat(j, ','));
	if (!js_eat(j, ']'))
		j->bad = 1;
}

static void
js_vector(struct json *j, struct vector *v)
{
	struct { const char *key; struct blob *b; } hexes[] = {
		{ "init_prologue", &v->iprologue },
		{ "resp_prologue", &v->rprologue },
		{ "init_ephemeral", &v->ie },
		{ "resp_ephemeral", &v->re },
		{ "handshake_hash", &v->hash },
	};
	const char *k, *s;
	size_t n, sn, i;

	if (!js_eat(j, '{')) {
		j->bad = 1;
		return;
	}
	do {
		if (js_member(j, &k, &n) != 0)
			return;
		for (i = 0; i < sizeof hexes / sizeof hexes[0]; i++)
			if (key_is(k, n, hexes[i].key))
				break;
		if (i < sizeof hexes / sizeof hexes[0]) {
			js_hex(j, hexes[i].b);
		} else if (key_is(k, n, "protocol_name")) {
			if (!js_string(j, &s, &sn) && sn < sizeof v->name)
				memcpy(v->name, s, sn);
			else
				j->bad = 1;
		} else if (key_is(k, n, "init_psks")) {
			js_psks(j, &v->ipsk);
		} else if (key_is(k, n, "resp_psks")) {
			js_psks(j, &v->rpsk);
		} else if (key_is(k, n, "messages")) {
			js_messages(j, v);
		} else {
			js_skip(j, 1);
		}
	} while (!j->bad && js_eat(j, ','));
	if (!js_eat(j, '}'))
		j->bad = 1;
}

static int
load_vectors(void)
{
	static char text[65536];
	struct json j;
	const char *k;
	size_t n, len;
	FILE *f = fopen(VECTORS, "rb");

	if (!f)
		return -1;
	len = fread(text, 1, sizeof text, f);
	fclose(f);
	if (len == sizeof text)
		return -1;
	j = (struct json){ text, text + len, 0 };
	if (!js_eat(&j, '{'))
		return -1;
	do {
		if (js_member(&j, &k, &n) != 0)
			return -1;
		if (!key_is(k, n, "vectors")) {
			js_skip(&j, 1);
			continue;
		}
		if (!js_eat(&j, '['))
			return -1;
		do {
			if (nvec == VEC_MAX)
				return -1;
			js_vector(&j, &vec[nvec++]);
		} while (!j.bad && js_eat(&j, ','));
		if (!js_eat(&j, ']'))
			return -1;
	} while (!j.bad && js_eat(&j, ','));
	return j.bad || !js_eat(&j, '}') ? -1 : 0;
}

/* ---- vectors, one side at a time ------------------------------------ */

static int
blob_is(const struct blob *b, const uint8_t *p, size_t n)
{
	return b->len == n && memcmp(b->b, p, n) == 0;
}

/* Play one side of vector v: write its messages and compare them with
 * the vector, read the peer's messages from the vector and compare the
 * payloads. */
static void
play_side(const struct vector *v, size_t vi, enum noise_role role)
{
	static uint8_t buf[NOISE_MSG_MAX];
	const int ini = role == NOISE_INITIATOR;
	const char *side = ini ? "initiator" : "responder";
	const struct blob *pro = ini ? &v->iprologue : &v->rprologue;
	const struct blob *psk = ini ? &v->ipsk : &v->rpsk;
	struct noise_handshake hs;
	struct noise_transport t = { 0 };
	uint8_t h[NOISE_HASH_LEN];
	size_t n = 0;
	int good;

	good = noise_handshake_init(&hs, role, psk->present ? psk->b : NULL,
	    pro->b, pro->len) == NOISE_OK && noise_handshake_set_ephemeral(&hs,
	    ini ? v->ie.b : v->re.b) == NOISE_OK;
	ok(good, "vector %zu %s: init with its prologue, psk (if any) and "
	    "ephemeral", vi, side);
	for (size_t m = 0; m < v->nmsg; m++) {
		const struct blob *pl = &v->payload[m], *ct = &v->ciphertext[m];
		int mine = (m % 2 == 0) == ini;
		const char *what = m < 2 ? "handshake" : "transport";
		enum noise_status st;

		if (mine && m < 2)
			st = noise_write_message(&hs, pl->b, pl->len, buf,
			    sizeof buf, &n);
		else if (m < 2)
			st = noise_read_message(&hs, ct->b, ct->len, buf,
			    sizeof buf, &n);
		else if (mine) {
			memcpy(buf, pl->b, pl->len);
			st = noise_encrypt(&t, buf, pl->len, sizeof buf, &n);
		} else {
			memcpy(buf, ct->b, ct->len);
			st = noise_decrypt(&t, buf, ct->len, &n);
		}
		if (mine)
			ok(st == NOISE_OK && blob_is(ct, buf, n),
			    "vector %zu %s: %s message %zu ciphertext is "
			    "byte-exact (%zu bytes)", vi, side, what, m, n);
		else
			ok(st == NOISE_OK && blob_is(pl, buf, n),
			    "vector %zu %s: %s message %zu decrypts to its "
			    "payload (%zu bytes)", vi, side, what, m, n);
		if (m == 1) {
			good = noise_handshake_hash(&hs, h) == NOISE_OK;
			if (v->hash.present)
				ok(good && blob_is(&v->hash, h, sizeof h),
				    "vector %zu %s: handshake hash matches",
				    vi, side);
			else
				ok(good, "vector %zu %s: handshake hash "
				    "available (vector has none)", vi, side);
			ok(noise_split(&hs, &t) == NOISE_OK,
			    "vector %zu %s: split", vi, side);
		}
	}
	noise_transport_destroy(&t);
	noise_handshake_destroy(&hs);
}

static void
test_vectors(void)
{
	static const char *const want[] = { NOISE_NAME_PSK, NOISE_NAME_NN,
		NOISE_NAME_NN };

	if (!ok(load_vectors() == 0 && nvec == 3, "vector file parses: "
	    "3 vectors in " VECTORS))
		return;
	for (size_t i = 0; i < nvec; i++) {
		const struct vector *v = &vec[i];

		ok(strcmp(v->name, want[i]) == 0 && v->nmsg >= 4 &&
		    v->ie.len == 32 && v->re.len == 32 &&
		    v->ipsk.present == (i == 0) && v->rpsk.present == (i == 0),
		    "vector %zu is %s with %zu messages", i, v->name, v->nmsg);
		play_side(v, i, NOISE_INITIATOR);
		play_side(v, i, NOISE_RESPONDER);
	}
}

/* ---- airlock's own use ---------------------------------------------- */

static const uint8_t psk_a[NOISE_PSK_LEN] = "0123456789abcdef0123456789abcdef";
static const uint8_t psk_b[NOISE_PSK_LEN] = "0123456789abcdef0123456789abcdeF";

/* Run msg1 and msg2 between fresh states with random ephemerals. */
static int
handshake(struct noise_handshake *i, struct noise_handshake *r,
    const uint8_t *ipsk, const uint8_t *rpsk, uint8_t msg1[NOISE_MSG1_LEN],
    uint8_t msg2[NOISE_MSG2_LEN])
{
	uint8_t tmp1[NOISE_MSG1_LEN], tmp2[NOISE_MSG2_LEN], none[1];
	size_t n1 = 0, n2 = 0, p1 = 1, p2 = 1;

	if (!msg1)
		msg1 = tmp1;
	if (!msg2)
		msg2 = tmp2;
	return noise_handshake_init(i, NOISE_INITIATOR, ipsk, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN) == NOISE_OK &&
	    noise_handshake_init(r, NOISE_RESPONDER, rpsk, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN) == NOISE_OK &&
	    noise_write_message(i, NULL, 0, msg1, NOISE_MSG1_LEN, &n1) ==
	    NOISE_OK && n1 == NOISE_MSG1_LEN &&
	    noise_read_message(r, msg1, n1, none, 0, &p1) == NOISE_OK &&
	    p1 == 0 &&
	    noise_write_message(r, NULL, 0, msg2, NOISE_MSG2_LEN, &n2) ==
	    NOISE_OK && n2 == NOISE_MSG2_LEN &&
	    noise_read_message(i, msg2, n2, none, 0, &p2) == NOISE_OK &&
	    p2 == 0;
}

static int
pair(struct noise_transport *it, struct noise_transport *rt)
{
	struct noise_handshake i, r;

	return handshake(&i, &r, psk_a, psk_a, NULL, NULL) &&
	    noise_split(&i, it) == NOISE_OK && noise_split(&r, rt) == NOISE_OK;
}

static void
test_airlock_handshake(void)
{
	struct noise_handshake i, r;
	struct noise_transport it, rt;
	uint8_t hi[NOISE_HASH_LEN], hr[NOISE_HASH_LEN];
	uint8_t m1a[NOISE_MSG1_LEN], m1b[NOISE_MSG1_LEN], buf[64];
	size_t n;

	ok(NOISE_MSG1_LEN == 48 && NOISE_MSG2_LEN == 48,
	    "msg1 and msg2 are 32 + 16 bytes each");
	ok(strcmp(NOISE_PROLOGUE, "airlock/1 Noise_NNpsk0_25519_ChaChaPoly_"
	    "SHA256") == 0 && NOISE_PROLOGUE_LEN == 46, "prologue constant");
	ok(handshake(&i, &r, psk_a, psk_a, m1a, NULL),
	    "psk handshake: 48-byte messages, empty payloads");
	ok(noise_handshake_complete(&i) && noise_handshake_complete(&r) &&
	    noise_handshake_hash(&i, hi) == NOISE_OK &&
	    noise_handshake_hash(&r, hr) == NOISE_OK &&
	    memcmp(hi, hr, sizeof hi) == 0, "both sides agree on the hash");
	ok(noise_split(&i, &it) == NOISE_OK && noise_split(&r, &rt) ==
	    NOISE_OK, "both sides split");
	ok(ct_is_zero(i.ck, sizeof i.ck) && ct_is_zero(i.e_priv, sizeof i.e_priv) &&
	    ct_is_zero(i.psk, sizeof i.psk) && ct_is_zero(&i.cs, sizeof i.cs) &&
	    ct_is_zero(r.ck, sizeof r.ck) && ct_is_zero(r.e_priv, sizeof r.e_priv) &&
	    ct_is_zero(r.psk, sizeof r.psk) && ct_is_zero(&r.cs, sizeof r.cs),
	    "split wipes ck, ephemeral, psk and handshake key on both sides");
	ok(noise_handshake_hash(&i, hi) == NOISE_OK &&
	    memcmp(hi, hr, sizeof hi) == 0, "hash survives the split");

	memcpy(buf, "spawn", 5);
	ok(noise_encrypt(&it, buf, 5, sizeof buf, &n) == NOISE_OK && n == 21 &&
	    memcmp(buf, "spawn", 5) != 0 &&
	    noise_decrypt(&rt, buf, n, &n) == NOISE_OK && n == 5 &&
	    memcmp(buf, "spawn", 5) == 0, "initiator -> responder");
	memcpy(buf, "started", 7);
	ok(noise_encrypt(&rt, buf, 7, sizeof buf, &n) == NOISE_OK &&
	    noise_decrypt(&it, buf, n, &n) == NOISE_OK && n == 7 &&
	    memcmp(buf, "started", 7) == 0, "responder -> initiator");
	ok(noise_encrypt(&it, buf, 0, sizeof buf, &n) == NOISE_OK && n == 16 &&
	    noise_decrypt(&rt, buf, n, &n) == NOISE_OK && n == 0,
	    "an empty plaintext is a bare tag");
	noise_transport_destroy(&it);
	ok(ct_is_zero(&it, sizeof it) && noise_encrypt(&it, buf, 1, sizeof buf,
	    &n) == NOISE_ERR_STATE, "a destroyed transport is zero, refuses");
	noise_transport_destroy(&rt);

	ok(handshake(&i, &r, psk_a, psk_a, m1b, NULL) &&
	    memcmp(m1a, m1b, 32) != 0,
	    "two handshakes draw different ephemerals");
	noise_handshake_destroy(&i);
	noise_handshake_destroy(&r);
}

static void
test_wrong_psk_and_prologue(void)
{
	struct noise_handshake i, r;
	uint8_t m1[NOISE_MSG1_LEN], m2[NOISE_MSG2_LEN], pl[16];
	size_t n;

	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_handshake_init(&r, NOISE_RESPONDER, psk_b, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_write_message(&i, NULL, 0, m1, sizeof m1, &n);
	ok(noise_read_message(&r, m1, n, pl, 0, &n) == NOISE_ERR_AUTH,
	    "responder with another psk fails msg1");
	ok(r.failed && ct_is_zero(r.h, sizeof r.h) && noise_write_message(&r,
	    NULL, 0, m2, sizeof m2, &n) == NOISE_ERR_STATE,
	    "that responder is wiped and cannot answer");

	/* a responder without psk (NN) takes msg1's tag for a payload and
	 * answers; the initiator must refuse that answer */
	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_handshake_init(&r, NOISE_RESPONDER, NULL, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_write_message(&i, NULL, 0, m1, sizeof m1, &n);
	ok(noise_read_message(&r, m1, n, pl, sizeof pl, &n) == NOISE_OK &&
	    n == 16 && noise_write_message(&r, NULL, 0, m2, sizeof m2, &n) ==
	    NOISE_OK, "a fake responder without psk answers msg1");
	ok(noise_read_message(&i, m2, n, pl, sizeof pl, &n) == NOISE_ERR_AUTH &&
	    !noise_handshake_complete(&i), "initiator refuses its msg2");

	/* an initiator without psk sends a 32-byte msg1 */
	noise_handshake_init(&i, NOISE_INITIATOR, NULL, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	ok(noise_write_message(&i, NULL, 0, m1, sizeof m1, &n) == NOISE_OK &&
	    n == 32 && noise_read_message(&r, m1, n, pl, 0, &n) ==
	    NOISE_ERR_SIZE, "responder with psk refuses a psk-less msg1");

	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, "airlock/2", 9);
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_write_message(&i, NULL, 0, m1, sizeof m1, &n);
	ok(noise_read_message(&r, m1, n, pl, 0, &n) == NOISE_ERR_AUTH,
	    "another prologue (protocol version) fails msg1");
	noise_handshake_destroy(&i);
	noise_handshake_destroy(&r);
}

/* Does every single-bit flip of message m (n bytes) fail the peer in
 * state saved? m is left as it was. */
static int
every_flip_fails(const struct noise_handshake *saved, uint8_t *m, size_t n)
{
	struct noise_handshake tmp;
	uint8_t pl[1];
	size_t got;
	int all = 1;

	for (size_t bit = 0; bit < 8 * n; bit++) {
		m[bit / 8] ^= (uint8_t)(1u << bit % 8);
		tmp = *saved;
		all &= noise_read_message(&tmp, m, n, pl, 0, &got) != NOISE_OK;
		m[bit / 8] ^= (uint8_t)(1u << bit % 8);
	}
	return all;
}

static void
test_handshake_bit_flips(void)
{
	struct noise_handshake i, r, saved_i, saved_r, tmp;
	uint8_t m1[NOISE_MSG1_LEN], m2[NOISE_MSG2_LEN], pl[1];
	size_t n, n1 = 0, n2 = 0;

	noise_pair_init(&i, &r, psk_a, NULL, NULL);
	noise_write_message(&i, NULL, 0, m1, sizeof m1, &n1);
	saved_r = r;
	noise_read_message(&r, m1, n1, pl, 0, &n);
	noise_write_message(&r, NULL, 0, m2, sizeof m2, &n2);
	saved_i = i;
	ok(n1 == NOISE_MSG1_LEN && every_flip_fails(&saved_r, m1, n1),
	    "every single-bit flip of msg1 fails the responder");
	ok(n2 == NOISE_MSG2_LEN && every_flip_fails(&saved_i, m2, n2),
	    "every single-bit flip of msg2 fails the initiator");
	ok(ct_is_zero(saved_i.psk, sizeof saved_i.psk),
	    "the initiator wiped its psk once msg1 was written");
	tmp = saved_i;
	ok(noise_read_message(&tmp, m2, n2, pl, 0, &n) == NOISE_OK,
	    "the unflipped msg2 still passes (the flips were the cause)");
	noise_handshake_destroy(&tmp);
	noise_handshake_destroy(&saved_i);
	noise_handshake_destroy(&saved_r);
	noise_handshake_destroy(&i);
	noise_handshake_destroy(&r);
}

/* A payload whose tag fails must not be left behind decrypted. */
static void
test_handshake_payload_wipe(void)
{
	struct noise_handshake i, r;
	uint8_t m1[NOISE_MSG1_LEN + 5], pl[16];
	size_t n = 0;

	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	noise_write_message(&i, (const uint8_t *)"hello", 5, m1, sizeof m1,
	    &n);
	m1[n - 1] ^= 1;
	memset(pl, 0xaa, sizeof pl);
	ok(noise_read_message(&r, m1, n, pl, sizeof pl, &n) == NOISE_ERR_AUTH &&
	    ct_is_zero(pl, 5), "a handshake payload that fails its tag is wiped");
	noise_handshake_destroy(&i);
	noise_handshake_destroy(&r);
}

static void
test_transport_bit_flips(void)
{
	static const char msg[] = "a spawn request of some forty bytes..";
	struct noise_transport it, rt, tmp;
	uint8_t ct[64], buf[64];
	size_t n, len = sizeof msg - 1, clen = 0;
	int body = 1, tag = 1, wiped = 1, dead = 1;

	if (!ok(pair(&it, &rt), "handshake for the flip tests"))
		return;
	memcpy(ct, msg, len);
	noise_encrypt(&it, ct, len, sizeof ct, &clen);
	for (size_t bit = 0; bit < 8 * clen; bit++) {
		tmp = rt;
		memcpy(buf, ct, clen);
		buf[bit / 8] ^= (uint8_t)(1u << bit % 8);
		if (noise_decrypt(&tmp, buf, clen, &n) != NOISE_ERR_AUTH)
			*(bit / 8 < len ? &body : &tag) = 0;
		wiped &= ct_is_zero(buf, clen);
		/* sticky: the genuine message is now refused too */
		memcpy(buf, ct, clen);
		dead &= !tmp.ready && noise_decrypt(&tmp, buf, clen, &n) ==
		    NOISE_ERR_STATE && noise_encrypt(&tmp, buf, 1, sizeof buf,
		    &n) == NOISE_ERR_STATE;
	}
	ok(body, "every bit flip in the ciphertext fails (%zu bits)", 8 * len);
	ok(tag, "every bit flip in the tag fails (128 bits)");
	ok(wiped, "a failed decrypt leaves no plaintext in the buffer");
	ok(dead, "after a failure both directions are refused, even the "
	    "genuine message");
	memcpy(buf, ct, clen);
	ok(noise_decrypt(&rt, buf, clen, &n) == NOISE_OK && n == len &&
	    memcmp(buf, msg, len) == 0, "the genuine message decrypts");
	memcpy(buf, ct, clen);
	ok(noise_decrypt(&rt, buf, clen, &n) == NOISE_ERR_AUTH,
	    "the same message replayed fails (nonce moved on)");
	ok(noise_decrypt(&rt, buf, clen, &n) == NOISE_ERR_STATE,
	    "and the state stays failed");
	noise_transport_destroy(&it);
	noise_transport_destroy(&rt);
	noise_transport_destroy(&tmp);
}

/* msg1 carries nothing that binds it to one connection, so a recorded
 * one is accepted again; what the replayer gets is a session neither it
 * nor the recorded initiator can use. */
static void
test_replay(void)
{
	struct noise_handshake i, r1, r2;
	struct noise_transport it, r1t, r2t, copy;
	uint8_t m1[NOISE_MSG1_LEN], m2a[NOISE_MSG2_LEN], m2b[NOISE_MSG2_LEN];
	uint8_t spawn[64], buf[64], pl[1];
	size_t n, slen = 0;

	ok(handshake(&i, &r1, psk_a, psk_a, m1, m2a) &&
	    noise_split(&i, &it) == NOISE_OK &&
	    noise_split(&r1, &r1t) == NOISE_OK, "genuine handshake");
	memcpy(spawn, "SPAWN npx -y pkg@1", 18);
	noise_encrypt(&it, spawn, 18, sizeof spawn, &slen);

	noise_handshake_init(&r2, NOISE_RESPONDER, psk_a, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	ok(noise_read_message(&r2, m1, sizeof m1, pl, 0, &n) == NOISE_OK &&
	    noise_write_message(&r2, NULL, 0, m2b, sizeof m2b, &n) ==
	    NOISE_OK && noise_split(&r2, &r2t) == NOISE_OK,
	    "a replayed msg1 is answered by a fresh responder");
	ok(memcmp(m2a, m2b, sizeof m2a) != 0,
	    "with a different msg2 (new responder ephemeral)");
	memcpy(buf, spawn, slen);
	ok(noise_decrypt(&r2t, buf, slen, &n) == NOISE_ERR_AUTH,
	    "the recorded spawn request replayed into it fails");
	memcpy(buf, "hello", 5);
	noise_handshake_init(&r2, NOISE_RESPONDER, psk_a, NOISE_PROLOGUE,
	    NOISE_PROLOGUE_LEN);
	noise_read_message(&r2, m1, sizeof m1, pl, 0, &n);
	noise_write_message(&r2, NULL, 0, m2b, sizeof m2b, &n);
	noise_split(&r2, &r2t);
	noise_encrypt(&r2t, buf, 5, sizeof buf, &n);
	copy = it;
	ok(noise_decrypt(&copy, buf, n, &n) == NOISE_ERR_AUTH,
	    "the old initiator cannot decrypt what the replayed session "
	    "sends");
	memcpy(buf, spawn, slen);
	ok(noise_decrypt(&r1t, buf, slen, &n) == NOISE_OK,
	    "the genuine responder decrypts the genuine request");
	noise_transport_destroy(&it);
	noise_transport_destroy(&r1t);
	noise_transport_destroy(&r2t);
	noise_transport_destroy(&copy);
	noise_handshake_destroy(&i);
	noise_handshake_destroy(&r1);
	noise_handshake_destroy(&r2);
}

static void
test_out_of_turn(void)
{
	static const uint8_t e[32] = { 1, 2, 3 };
	struct noise_handshake i, r;
	struct noise_transport t;
	uint8_t m[NOISE_MSG1_LEN] = { 0 }, m2[NOISE_MSG2_LEN], pl[1], h[32];
	size_t n;

	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	ok(noise_read_message(&i, m, sizeof m, pl, 0, &n) == NOISE_ERR_STATE &&
	    i.failed, "initiator reading first fails");
	ok(noise_write_message(&i, NULL, 0, m, sizeof m, &n) ==
	    NOISE_ERR_STATE, "and stays failed");
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	ok(noise_write_message(&r, NULL, 0, m, sizeof m, &n) ==
	    NOISE_ERR_STATE, "responder writing first fails");

	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	ok(noise_split(&i, &t) == NOISE_ERR_STATE && !t.ready,
	    "split before the handshake fails");
	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	ok(noise_handshake_hash(&i, h) == NOISE_ERR_STATE,
	    "no hash before the handshake");
	noise_write_message(&i, NULL, 0, m, sizeof m, &n);
	ok(noise_handshake_set_ephemeral(&i, e) == NOISE_ERR_STATE,
	    "no ephemeral injection after writing e");
	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	noise_write_message(&i, NULL, 0, m, sizeof m, &n);
	ok(noise_write_message(&i, NULL, 0, m, sizeof m, &n) ==
	    NOISE_ERR_STATE, "initiator writing twice fails");
	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	noise_write_message(&i, NULL, 0, m, sizeof m, &n);
	noise_read_message(&r, m, sizeof m, pl, 0, &n);
	ok(noise_read_message(&r, m, sizeof m, pl, 0, &n) == NOISE_ERR_STATE,
	    "responder reading twice fails");
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	noise_read_message(&r, m, sizeof m, pl, 0, &n);
	noise_write_message(&r, NULL, 0, m2, sizeof m2, &n);
	noise_read_message(&i, m2, sizeof m2, pl, 0, &n);
	ok(noise_split(&i, &t) == NOISE_OK &&
	    noise_split(&i, &t) == NOISE_ERR_STATE && !t.ready,
	    "a second split fails and leaves no keys");
	ok(noise_write_message(&i, NULL, 0, m, sizeof m, &n) ==
	    NOISE_ERR_STATE && noise_read_message(&i, m2, sizeof m2, pl, 0,
	    &n) == NOISE_ERR_STATE, "no handshake message after the split");
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	noise_handshake_destroy(&r);
	ok(ct_is_zero(r.psk, sizeof r.psk) && ct_is_zero(r.h, sizeof r.h) &&
	    noise_handshake_set_ephemeral(&r, e) == NOISE_ERR_STATE &&
	    noise_read_message(&r, m, sizeof m, pl, 0, &n) == NOISE_ERR_STATE,
	    "a destroyed handshake is wiped and refuses every call");
	noise_handshake_destroy(&i);
}

static void
test_nonce_limit(void)
{
	static const uint8_t key[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
		28, 29, 30, 31 };
	/* ChaCha20-Poly1305("airlock") under key 00..1f, empty ad, nonce
	 * 00000000 || LE64(n), from python3's cryptography package */
	static const uint8_t kat_mid[23] = { 0x91, 0x20, 0xdf, 0x88, 0xc4,
		0x5a, 0x81, 0x8b, 0x74, 0x67, 0xc2, 0xa1, 0xa6, 0x7a, 0x39,
		0x6b, 0x43, 0x1e, 0xbc, 0x95, 0x1d, 0x41, 0xb7 };
	static const uint8_t kat_last[23] = { 0x31, 0x7e, 0x48, 0x69, 0x43,
		0x5e, 0xea, 0x7f, 0xc4, 0x17, 0x73, 0x4c, 0xf3, 0x85, 0xa1,
		0x7d, 0x1b, 0x30, 0x41, 0x0f, 0xd8, 0x56, 0xb9 };
	struct noise_transport it, rt;
	uint8_t buf[64];
	size_t n;

	memset(&it, 0, sizeof it);
	memcpy(it.tx.k, key, sizeof key);
	it.tx.has_key = 1;
	it.ready = 1;
	it.tx.n = 0x0102030405060708u;
	memcpy(buf, "airlock", 7);
	ok(noise_encrypt(&it, buf, 7, sizeof buf, &n) == NOISE_OK && n == 23 &&
	    memcmp(buf, kat_mid, n) == 0, "nonce is 4 zero bytes || LE64(n)");
	it.tx.n = UINT64_MAX - 1;
	memcpy(buf, "airlock", 7);
	ok(noise_encrypt(&it, buf, 7, sizeof buf, &n) == NOISE_OK &&
	    memcmp(buf, kat_last, n) == 0, "nonce 2^64-2 is the last one used");
	ok(noise_encrypt(&it, buf, 7, sizeof buf, &n) == NOISE_ERR_NONCE &&
	    !it.ready && ct_is_zero(&it, sizeof it),
	    "nonce 2^64-1 is refused and the state is wiped");

	if (!ok(pair(&it, &rt), "handshake for the nonce test"))
		return;
	it.tx.n = rt.rx.n = UINT64_MAX - 1;
	memcpy(buf, "last", 4);
	ok(noise_encrypt(&it, buf, 4, sizeof buf, &n) == NOISE_OK &&
	    noise_decrypt(&rt, buf, n, &n) == NOISE_OK && n == 4 &&
	    memcmp(buf, "last", 4) == 0, "both sides use nonce 2^64-2");
	ok(noise_encrypt(&it, buf, 4, sizeof buf, &n) == NOISE_ERR_NONCE &&
	    noise_decrypt(&it, buf, 20, &n) == NOISE_ERR_STATE,
	    "sender: next encrypt fails, state dead");
	memset(buf, 0, 20);
	ok(noise_decrypt(&rt, buf, 20, &n) == NOISE_ERR_NONCE && !rt.ready,
	    "receiver: next decrypt fails on the nonce, state dead");
	noise_transport_destroy(&it);
	noise_transport_destroy(&rt);
}

static void
test_sizes(void)
{
	static uint8_t big[NOISE_MSG_MAX + 1], pl[NOISE_MSG_MAX];
	struct noise_handshake i, r;
	struct noise_transport it, rt, tmp;
	uint8_t m1[NOISE_MSG1_LEN + 1] = { 0 }, p[1];
	size_t n = 0;

	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	noise_write_message(&i, NULL, 0, m1, sizeof m1, &n);
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	ok(noise_read_message(&r, m1, NOISE_MSG1_LEN - 1, p, 0, &n) ==
	    NOISE_ERR_SIZE, "a 47-byte msg1 is refused");
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	ok(noise_read_message(&r, m1, NOISE_MSG1_LEN + 1, p, 0, &n) ==
	    NOISE_ERR_SIZE, "a payload over payload_cap (0) is refused");
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	ok(noise_read_message(&r, big, sizeof big, pl, sizeof pl, &n) ==
	    NOISE_ERR_SIZE, "a 65536-byte msg1 is refused");

	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	ok(noise_write_message(&i, pl, NOISE_HS_PAYLOAD_MAX + 1, big,
	    sizeof big, &n) == NOISE_ERR_SIZE, "a handshake payload making "
	    "msg1 longer than 65535 is refused");
	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	ok(noise_write_message(&i, pl, 1, m1, NOISE_MSG1_LEN, &n) ==
	    NOISE_ERR_SIZE, "an output buffer too small is refused");
	noise_handshake_init(&i, NOISE_INITIATOR, psk_a, NULL, 0);
	noise_handshake_init(&r, NOISE_RESPONDER, psk_a, NULL, 0);
	ok(noise_write_message(&i, pl, NOISE_HS_PAYLOAD_MAX, big, sizeof big,
	    &n) == NOISE_OK && n == NOISE_MSG_MAX &&
	    noise_read_message(&r, big, n, pl, sizeof pl, &n) == NOISE_OK &&
	    n == NOISE_HS_PAYLOAD_MAX, "a 65535-byte msg1 goes through");

	if (!ok(pair(&it, &rt), "handshake for the size tests"))
		return;
	tmp = it;
	ok(noise_encrypt(&tmp, big, NOISE_MSG_MAX - 15, sizeof big, &n) ==
	    NOISE_ERR_SIZE && !tmp.ready, "encrypting 65520 bytes is refused");
	tmp = it;
	ok(noise_encrypt(&tmp, big, 10, 25, &n) == NOISE_ERR_SIZE,
	    "encrypting without room for the tag is refused");
	tmp = rt;
	ok(noise_decrypt(&tmp, big, 15, &n) == NOISE_ERR_SIZE && !tmp.ready,
	    "a 15-byte transport message is refused");
	tmp = rt;
	ok(noise_decrypt(&tmp, big, sizeof big, &n) == NOISE_ERR_SIZE,
	    "a 65536-byte transport message is refused");
	ok(noise_encrypt(&it, big, NOISE_MSG_MAX - 16, sizeof big, &n) ==
	    NOISE_OK && n == NOISE_MSG_MAX && noise_decrypt(&rt, big, n, &n) ==
	    NOISE_OK && n == NOISE_MSG_MAX - 16, "a 65535-byte message works");
	noise_transport_destroy(&it);
	noise_transport_destroy(&rt);
	noise_transport_destroy(&tmp);
	noise_handshake_destroy(&i);
	noise_handshake_destroy(&r);
}

/* airlock's own profile (NOISE_PROLOGUE, a PSK from secret_test's known
 * answer, fixed ephemerals) against an independent python3 implementation
 * (hashlib, hmac and the cryptography package's X25519 and
 * ChaCha20Poly1305); docs/PROTOCOL.md shows the same bytes. */
static void
test_airlock_known_answer(void)
{
	struct noise_handshake i, r;
	struct noise_transport it, rt;
	uint8_t psk[32], ie[32], re[32], m1[48], m2[48], h[32], t1[25], t2[25];
	uint8_t buf[64], pl[1];
	size_t n;

	ok(tap_unhex(psk, 32, "c438f3a7d9e27ae3ad54685945cc90c7"
	    "71d501efd2333d40c7011881bbe57436") == 0 &&
	    tap_unhex(ie, 32, "102132435465768798a9bacbdcedfe0f"
	    "00000000000000000000000000000000") == 0 &&
	    tap_unhex(re, 32, "f0e1d2c3b4a5968778695a4b3c2d1e0f"
	    "00000000000000000000000000000000") == 0 &&
	    tap_unhex(m1, 48, "a0bf5526e74627c139604e4861cf6bbf79127ad4d4ab3f80"
	    "13ab8d84780aa01295d24c7ff9aba12449598dd664d1e69c") == 0 &&
	    tap_unhex(m2, 48, "2d03566789077d747f01f5e66bd699b91b0b1bbc3dc71e5f"
	    "fda574587b8aa42a73b6a5334cf9b4092fc665b216d82520") == 0 &&
	    tap_unhex(h, 32, "31bb0804a0dcd462eb6e828fb597d6af"
	    "6212b2c68db4fb8514df98fc47750b03") == 0 &&
	    tap_unhex(t1, 25, "780e8d524a15b20008da7be804ac9efed0969c92715c3d42"
	    "5e") == 0 &&
	    tap_unhex(t2, 25, "8393c1036afd208e466531d797ba07b805a736fe6eb795da"
	    "60") == 0, "the known answers decode");

	noise_pair_init(&i, &r, psk, ie, re);
	ok(noise_write_message(&i, NULL, 0, buf, sizeof buf, &n) == NOISE_OK &&
	    n == 48 && memcmp(buf, m1, 48) == 0, "airlock msg1 known answer");
	ok(noise_read_message(&r, m1, 48, pl, 0, &n) == NOISE_OK &&
	    noise_write_message(&r, NULL, 0, buf, sizeof buf, &n) == NOISE_OK &&
	    n == 48 && memcmp(buf, m2, 48) == 0, "airlock msg2 known answer");
	ok(noise_read_message(&i, m2, 48, pl, 0, &n) == NOISE_OK &&
	    noise_handshake_hash(&i, buf) == NOISE_OK &&
	    memcmp(buf, h, 32) == 0 && noise_handshake_hash(&r, buf) ==
	    NOISE_OK && memcmp(buf, h, 32) == 0,
	    "airlock handshake hash known answer");
	noise_split(&i, &it);
	noise_split(&r, &rt);
	memcpy(buf, "\x09pingpong", 9);
	ok(noise_encrypt(&it, buf, 9, sizeof buf, &n) == NOISE_OK &&
	    n == 25 && memcmp(buf, t1, 25) == 0 &&
	    noise_decrypt(&rt, buf, n, &n) == NOISE_OK && n == 9,
	    "airlock first relay -> runner transport message known answer");
	memcpy(buf, "\x0apingpong", 9);
	ok(noise_encrypt(&rt, buf, 9, sizeof buf, &n) == NOISE_OK &&
	    n == 25 && memcmp(buf, t2, 25) == 0 &&
	    noise_decrypt(&it, buf, n, &n) == NOISE_OK && n == 9,
	    "airlock first runner -> relay transport message known answer");
	noise_transport_destroy(&it);
	noise_transport_destroy(&rt);
}

static void
test_x25519(void)
{
	uint8_t a[32], b[32], apub[32], bpub[32], want[32], out[32];
	uint8_t zero[32] = { 0 }, m2[NOISE_MSG2_LEN] = { 0 }, pl[1];
	struct noise_handshake i;
	size_t n;

	/* RFC 7748 section 6.1 */
	tap_unhex(a, 32, "77076d0a7318a57d3c16c17251b26645"
	    "df4c2f87ebc0992ab177fba51db92c2a");
	tap_unhex(b, 32, "5dab087e624a8a4b79e17f8b83800ee6"
	    "6f3bb1292618b6fd1c2f8b27ff88e0eb");
	tap_unhex(apub, 32, "8520f0098930a754748b7ddcb43ef75a"
	    "0dbf3a0d26381af4eba4a98eaa9b4e6a");
	tap_unhex(bpub, 32, "de9edb7d7b7dc1b4d35b61c2ece43537"
	    "3f8343c85b78674dadfc7e146f882b4f");
	tap_unhex(want, 32, "4a5d9d5ba4ce2de1728e3bf480350f25"
	    "e07e21c947d19e3376f09b3c1e161742");
	ok(noise_x25519(out, a, NULL) == NOISE_OK &&
	    memcmp(out, apub, 32) == 0, "RFC 7748 6.1: Alice's public key");
	ok(noise_x25519(out, b, NULL) == NOISE_OK &&
	    memcmp(out, bpub, 32) == 0, "RFC 7748 6.1: Bob's public key");
	ok(noise_x25519(out, a, bpub) == NOISE_OK &&
	    memcmp(out, want, 32) == 0 && noise_x25519(out, b, apub) ==
	    NOISE_OK && memcmp(out, want, 32) == 0,
	    "RFC 7748 6.1: both sides get the shared secret");
	ok(noise_x25519(out, a, zero) == NOISE_ERR_DH,
	    "the zero point (low order) is refused");

	/* NN: nothing but the DH check stops an all-zero ee */
	noise_handshake_init(&i, NOISE_INITIATOR, NULL, NULL, 0);
	noise_write_message(&i, NULL, 0, out, sizeof out, &n);
	ok(noise_read_message(&i, m2, sizeof m2, pl, 0, &n) == NOISE_ERR_DH,
	    "msg2 with a low-order e fails on DH, before any tag");
	noise_handshake_destroy(&i);
}

int
main(void)
{
	test_vectors();
	test_airlock_handshake();
	test_wrong_psk_and_prologue();
	test_handshake_bit_flips();
	test_handshake_payload_wipe();
	test_transport_bit_flips();
	test_replay();
	test_out_of_turn();
	test_nonce_limit();
	test_sizes();
	test_x25519();
	test_airlock_known_answer();
	return tap_done();
}
