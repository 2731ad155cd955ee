/* fuzz_errstream.c - a server's stderr and our records on one fd, over
 * arbitrary frames. Input: a flags byte (bit 0: json), then chunks of
 * (len:u8, bytes); a len with its top bit set also puts one record of ours
 * after the chunk. Invariants on what was written: every character is
 * well-formed UTF-8 and no control but tab and newline (C1, bidi and the
 * separators included: json_check.h's oracle); human: the lines starting
 * "relay: " are exactly our records; json: every line is {...}, and the
 * lines without "source" are exactly our records. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/base/errstream.h"
#include "fuzz.h"
#include "json_check.h"

static struct errstream s;
static char out[1 << 22];

static const char ours_human[] = "relay: info: ours\n";
static const char ours_json[] = "{\"ours\":1}\n";

static void
drain(void)
{
	while (errstream_busy(&s))
		errstream_flush(&s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	size_t off = 1, records = 0, seen = 0, n;
	int json;
	ssize_t got;

	if (size < 1)
		return 0;
	if (fd < 0)
		fd = memfd_create("fuzz_errstream", MFD_CLOEXEC);
	FUZZ_ASSERT(fd >= 0 && ftruncate(fd, 0) == 0 &&
	    lseek(fd, 0, SEEK_SET) == 0);
	json = data[0] & 1;
	FUZZ_ASSERT(errstream_init(&s, fd, json, "relay") == 0);
	while (off < size) {
		size_t len = data[off] & 0x7f;
		int rec = data[off] & 0x80;

		off++;
		if (len > size - off)
			len = size - off;
		errstream_put(&s, data + off, len);
		drain();
		off += len;
		if (rec) {
			const char *r = json ? ours_json : ours_human;

			errstream_record(&s, r, strlen(r));
			records++;
		}
	}
	errstream_finish(&s);
	drain();
	FUZZ_ASSERT(!s.dead && s.dropped == 0);
	got = pread(fd, out, sizeof out - 1, 0);
	FUZZ_ASSERT(got >= 0);
	n = (size_t)got;
	out[n] = '\0';
	for (size_t i = 0, start = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];

		FUZZ_ASSERT(c != 0x7f && (c >= 0x20 || c == '\t' || c == '\n'));
		/* both keep valid UTF-8 but never a C1 control (U+0080-
		 * U+009F: C2 80..C2 9F) */
		FUZZ_ASSERT(!(c == 0xc2 && i + 1 < n &&
		    (unsigned char)out[i + 1] < 0xa0));
		if (c != '\n')
			continue;
		if (json) {
			FUZZ_ASSERT(out[start] == '{' && out[i - 1] == '}');
			if (!memmem(out + start, i - start, "\"source\":", 9)) {
				FUZZ_ASSERT(i + 1 - start == sizeof ours_json - 1 &&
				    memcmp(out + start, ours_json, i + 1 - start) == 0);
				seen++;
			}
		} else if (i - start >= 7 && memcmp(out + start, "relay: ", 7) == 0) {
			FUZZ_ASSERT(i + 1 - start == sizeof ours_human - 1 &&
			    memcmp(out + start, ours_human, i + 1 - start) == 0);
			seen++;
		}
		start = i + 1;
	}
	FUZZ_ASSERT(seen == records);
	/* every character written is well-formed UTF-8 that a terminal
	 * shows (json_check.h's oracle): no raw invalid byte, no bidi
	 * control, no line separator */
	for (size_t i = 0, len; i < n; i += len) {
		uint32_t cp = jc_utf8((const uint8_t *)out + i, n - i, &len);

		FUZZ_ASSERT(!(cp == 0xfffd && len == 1) && (!jc_must_escape(cp) ||
		    cp == '"' || cp == '\\' || cp == '\t' || cp == '\n'));
	}
	return 0;
}
