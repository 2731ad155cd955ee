/* fuzz_sbx_warm.c - a warm slot's record of the tool's files
 * (common/sandbox/sbx_warm.c): its decoder, which the warm Java stage's
 * helper runs on its stdin, under hostile bytes, and against its encoder.
 * The first byte chooses:
 *   even: the rest after a split seed byte is a record as it comes;
 *   odd:  the rest describes files (a count, then per file a name's
 *         length and bytes and a size class: small, or around the caps),
 *         which sbx_warm_record encodes.
 * Invariants, for any bytes: used <= n; NEED took everything and wants
 * more; OK is 1..SBX_FILES_MAX files with sbx_name_valid names, each at
 * most SBX_FILE_MAX bytes, all at most SBX_FILES_TOTAL_MAX, and encodes
 * back to exactly the bytes it used (one spelling per record); BAD and OK
 * are sticky; fed in splits the seed chooses, or just want() bytes at a
 * time as the helper reads fd 0, the verdict, the bytes used and the
 * files are those of one whole feed, and the want() reader never takes a
 * byte past the record. For described files: the encoder's record
 * decodes OK to the same files exactly when they are within the caps and
 * names above, and BAD otherwise. */
#include <string.h>

#include "common/base/bounded_rw.h"
#include "common/sandbox/sbx_warm.h"
#include "fuzz.h"

static struct sbx_warm_rec one, other;	/* 4 MiB each */
static uint8_t pattern[SBX_FILES_TOTAL_MAX];	/* any size_of() */

static unsigned
next(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/* A split's next step: mostly small, sometimes up to a whole file. */
static size_t
step(unsigned *seed)
{
	static const size_t span[] = { 8, 64, 4096, SBX_FILE_MAX };
	unsigned r = next(seed);

	return 1 + (size_t)(r >> 2) % span[r & 3];
}

/* a and b decoded the same files. */
static int
same(const struct sbx_warm_rec *a, const struct sbx_warm_rec *b)
{
	if (a->nfiles != b->nfiles)
		return 0;
	for (size_t i = 0; i < a->nfiles; i++)
		if (strcmp(a->files[i].name, b->files[i].name) != 0 ||
		    a->files[i].len != b->files[i].len ||
		    memcmp(a->files[i].data, b->files[i].data,
		    a->files[i].len) != 0)
			return 0;
	return 1;
}

/* r's verdict is final: a later feed changes nothing. */
static void
sticky(struct sbx_warm_rec *r, enum sbx_warm_rc rc, const uint8_t *p,
    size_t n)
{
	size_t used = 1;

	FUZZ_ASSERT(sbx_warm_rec_feed(r, p, n, &used) == rc && used == 0);
	FUZZ_ASSERT(sbx_warm_rec_want(r) == 0);
}

/* What an OK record holds, and that it encodes back to its bytes. */
static void
check_ok(const struct sbx_warm_rec *r, const uint8_t *p, size_t used)
{
	struct sbx_job job = { .files = r->files, .nfiles = r->nfiles };
	uint64_t total = 0;
	uint8_t *again = NULL;
	size_t len = 0;

	FUZZ_ASSERT(r->nfiles >= 1 && r->nfiles <= SBX_FILES_MAX);
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct sbx_file_data *f = &r->files[i];
		size_t n = strnlen(f->name, SBX_NAME_MAX + 1);

		FUZZ_ASSERT(n <= SBX_NAME_MAX &&
		    sbx_name_valid((const uint8_t *)f->name, n));
		FUZZ_ASSERT(f->len <= SBX_FILE_MAX);
		FUZZ_ASSERT(f->data >= r->data &&
		    f->data + f->len <= r->data + sizeof r->data);
		total += f->len;
	}
	FUZZ_ASSERT(total <= SBX_FILES_TOTAL_MAX);
	FUZZ_ASSERT(sbx_warm_record(&job, &again, &len) == 0);
	FUZZ_ASSERT(len == used && memcmp(again, p, len) == 0);
	free(again);
}

/* p[0..n) in one piece, in the seed's splits, and want() bytes at a time:
 * the same verdict, bytes and files. Returns the verdict. */
static enum sbx_warm_rc
check_record(const uint8_t *p, size_t n, unsigned seed)
{
	enum sbx_warm_rc rc1, rc = SBX_WARM_NEED;
	size_t used1, used, off;

	sbx_warm_rec_init(&one);
	FUZZ_ASSERT(sbx_warm_rec_want(&one) == 2);
	rc1 = sbx_warm_rec_feed(&one, p, n, &used1);
	FUZZ_ASSERT(used1 <= n);
	if (rc1 == SBX_WARM_NEED)
		FUZZ_ASSERT(used1 == n && sbx_warm_rec_want(&one) > 0);
	else
		sticky(&one, rc1, p, n);
	if (rc1 == SBX_WARM_OK)
		check_ok(&one, p, used1);

	/* the seed's splits, an empty feed among them now and then */
	sbx_warm_rec_init(&other);
	for (off = 0; rc == SBX_WARM_NEED;) {
		size_t k = next(&seed) % 16 == 0 ? 0 : step(&seed);

		k = k < n - off ? k : n - off;
		rc = sbx_warm_rec_feed(&other, p + off, k, &used);
		FUZZ_ASSERT(used <= k);
		FUZZ_ASSERT(rc != SBX_WARM_NEED || used == k);
		off += used;
		if (off == n && rc == SBX_WARM_NEED)
			break;
	}
	FUZZ_ASSERT(rc == rc1 && off == used1);
	if (rc == SBX_WARM_OK)
		FUZZ_ASSERT(same(&one, &other));

	/* as the helper reads fd 0: exactly want() bytes, never past */
	sbx_warm_rec_init(&other);
	for (off = 0, rc = SBX_WARM_NEED; rc == SBX_WARM_NEED;) {
		size_t want = sbx_warm_rec_want(&other);

		FUZZ_ASSERT(want > 0);
		if (want > n - off)
			break;		/* the stream ends first: truncated */
		rc = sbx_warm_rec_feed(&other, p + off, want, &used);
		FUZZ_ASSERT(used == want);
		off += used;
	}
	if (rc == SBX_WARM_NEED)
		FUZZ_ASSERT(rc1 == SBX_WARM_NEED);
	else
		FUZZ_ASSERT(rc == rc1 && off == used1);
	if (rc == SBX_WARM_OK)
		FUZZ_ASSERT(same(&one, &other));
	return rc1;
}

/* The size of a described file: small, or one around the caps. */
static size_t
size_of(uint8_t c)
{
	static const size_t near[] = { SBX_FILE_MAX - 1, SBX_FILE_MAX,
		SBX_FILE_MAX + 1, SBX_FILES_TOTAL_MAX / 4 - 1,
		SBX_FILES_TOTAL_MAX / 4, SBX_FILES_TOTAL_MAX / 4 + 1,
		SBX_FILES_TOTAL_MAX / 5, SBX_FILES_TOTAL_MAX / 3 };

	return c < 0xf8 ? (size_t)c * 3 : near[c - 0xf8];
}

/* Files described by p[0..n), encoded, against the decoder's verdict. */
static void
check_files(const uint8_t *p, size_t n, unsigned seed)
{
	static char names[SBX_FILES_MAX + 2][256];
	struct sbx_file_data f[SBX_FILES_MAX + 2];
	struct sbx_job job = { .files = f };
	struct rd r = rd_init(p, n);
	uint64_t total = 0;
	uint8_t count, nlen, c;
	const uint8_t *s;
	uint8_t *enc = NULL;
	size_t len = 0;
	int valid;

	if (rd_u8(&r, &count) != 0)
		return;
	job.nfiles = count % (SBX_FILES_MAX + 3);
	valid = job.nfiles >= 1 && job.nfiles <= SBX_FILES_MAX;
	for (size_t i = 0; i < job.nfiles; i++) {
		if (rd_u8(&r, &nlen) != 0 || rd_bytes(&r, nlen, &s) != 0 ||
		    rd_u8(&r, &c) != 0)
			return;
		memcpy(names[i], s, nlen);
		names[i][nlen] = '\0';	/* a NUL in it ends it early */
		f[i] = (struct sbx_file_data){ names[i], pattern,
			size_of(c) };
		total += f[i].len;
		valid &= sbx_name_valid((const uint8_t *)names[i],
		    strlen(names[i])) && f[i].len <= SBX_FILE_MAX;
	}
	valid &= total <= SBX_FILES_TOTAL_MAX;
	if (sbx_warm_record(&job, &enc, &len) != 0) {
		/* only no file at all: every length here fits its field */
		FUZZ_ASSERT(job.nfiles == 0);
		return;
	}
	FUZZ_ASSERT(check_record(enc, len, seed) ==
	    (valid ? SBX_WARM_OK : SBX_WARM_BAD));
	if (valid) {
		struct sbx_warm_rec *d = &one;

		FUZZ_ASSERT(d->nfiles == job.nfiles);
		for (size_t i = 0; i < job.nfiles; i++)
			FUZZ_ASSERT(strcmp(d->files[i].name, f[i].name) == 0 &&
			    d->files[i].len == f[i].len &&
			    memcmp(d->files[i].data, f[i].data, f[i].len) == 0);
	}
	free(enc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	if (pattern[1] == 0)
		for (size_t i = 0; i < sizeof pattern; i++)
			pattern[i] = (uint8_t)(i * 7 + 1);
	if (data[0] & 1)
		check_files(data + 2, size - 2, data[1]);
	else
		check_record(data + 2, size - 2, data[1]);
	return 0;
}
