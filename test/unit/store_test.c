/* store_test.c - review records: any bytes survive a round trip, every
 * malformed or inconsistent record file is refused with its line, and the
 * store directory refuses strangers and ignores writers' temp files. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/policy/store.h"
#include "tap.h"

static const char good[] =
    "airlock-record 1:1\n"
    "id 7:r000001\n"
    "tenant 4:acme\n"
    "registration 6:github\n"
    "source 6:custom\n"
    "status 7:PENDING\n"
    "arg 3:npx\n"
    "arg 2:-y\n"
    "env 1:A\n"
    "env 1:B\n"
    "event 10:1700000000 5:alice 6:submit 7:PENDING 0:\n";

/* Each is good with one thing wrong, and the line that says so. */
static const struct {
	const char *from, *to;
	size_t line;
	const char *what;
} broken[] = {
	{ "airlock-record 1:1", "airlock-record 1:2", 1, "version 2" },
	{ "airlock-record 1:1\n", "", 1, "no header" },
	{ "id 7:r000001", "id 7:x000001", 2, "bad id" },
	{ "id 7:r000001", "id 07:r000001", 2, "length with a leading zero" },
	{ "id 7:r000001", "id 8:r000001", 2, "length past the value" },
	{ "id 7:r000001", "id  7:r000001", 2, "two spaces" },
	{ "id 7:r000001", "id 7:r000001 0:", 2, "an extra item" },
	{ "tenant 4:acme", "tenant 1:*", 5, "tenant * for custom" },
	{ "tenant 4:acme", "tenant 4:a/me", 3, "tenant with a slash" },
	{ "registration 6:github", "registration 0:", 4, "empty registration" },
	{ "source 6:custom", "source 6:CUSTOM", 5, "unknown source" },
	{ "status 7:PENDING", "status 7:PENDIN_", 6, "unknown status" },
	{ "arg 3:npx\narg 2:-y\n", "", 7, "no argument" },
	{ "env 1:A\nenv 1:B", "env 1:B\nenv 1:A", 10, "env out of order" },
	{ "env 1:A\nenv 1:B", "env 1:A\nenv 1:A", 10, "env twice" },
	{ "env 1:A", "env 3:A=B", 9, "env with '='" },
	{ "event 10:1700000000 5:alice 6:submit 7:PENDING 0:\n", "", 0,
	    "no history" },
	{ "5:alice", "6:al ice", 11, "actor with a space" },
	{ "6:submit", "6:delete", 11, "unknown action" },
	{ "10:1700000000", "10:17000000x0", 11, "time not a number" },
	{ "7:PENDING 0:\n", "8:APPROVED 0:\n", 0, "status differs from the "
	    "last event" },
	{ "0:\n", "0:\nextra 0:\n", 12, "a line after the events" },
	{ "0:\n", "0:", 11, "no final newline" },
};

static char *
replace(const char *from, const char *to)
{
	static char buf[4096];
	const char *at = strstr(good, from);
	size_t head = (size_t)(at - good);

	snprintf(buf, sizeof buf, "%.*s%s%s", (int)head, good, to,
	    at + strlen(from));
	return buf;
}

static void
test_parse(void)
{
	struct store_rec rec;
	const char *why;
	size_t line;

	ok(store_rec_parse((const uint8_t *)good, strlen(good), &rec, &line,
	    &why) == 0 && rec.argc == 2 && strcmp(rec.argv[1], "-y") == 0 &&
	    !rec.argv[2] && rec.envc == 2 && rec.nevents == 1 &&
	    rec.status == STORE_PENDING && rec.token[0] == '\0',
	    "a good record parses");
	store_rec_free(&rec);
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
		const char *text = replace(broken[i].from, broken[i].to);
		int rc = store_rec_parse((const uint8_t *)text, strlen(text),
		    &rec, &line, &why);

		if (!ok(rc == -1 && (broken[i].line == 0 || line ==
		    broken[i].line), "refused: %s", broken[i].what))
			printf("# rc %d line %zu: %s\n", rc, line, why);
	}
	{
		const char *renewed = replace("event 10:1700000000 5:alice "
		    "6:submit 7:PENDING 0:\n", "event 10:1700000000 5:alice "
		    "6:submit 7:PENDING 0:\nevent 10:1700000001 3:bob "
		    "5:renew 7:PENDING 0:\n");

		ok(store_rec_parse((const uint8_t *)renewed, strlen(renewed),
		    &rec, &line, &why) == 0 && rec.nevents == 2 &&
		    strcmp(rec.events[1].action, "renew") == 0,
		    "a renew event parses");
		store_rec_free(&rec);
	}
	ok(store_rec_parse((const uint8_t *)good, strlen(good) - 1, &rec,
	    &line, &why) == -1, "a record cut by one byte is refused");
	char nul[sizeof good];
	memcpy(nul, good, sizeof good);
	nul[30] = '\0';
	ok(store_rec_parse((const uint8_t *)nul, sizeof good - 1, &rec, &line,
	    &why) == -1, "a NUL byte is refused");
}

static void
test_round_trip(void)
{
	struct store_rec in = { 0 }, out;
	uint8_t *buf;
	size_t len, line;
	const char *why;

	in.id = "r000042";
	in.tenant = "*";
	in.registration = "fs";
	in.source = STORE_CATALOG;
	in.status = STORE_NOT_REQUIRED;
	in.argc = 3;
	in.argv[0] = "uvx";
	in.argv[1] = "two words\nand a newline 5:x";
	in.argv[2] = "\xff\x01 bytes";
	in.envc = 0;
	in.token = "abc.def";
	in.nevents = 1;
	in.events[0] = (struct store_event){ 7, "bob", "submit",
		STORE_NOT_REQUIRED, "note\nwith lines" };
	ok(store_rec_format(&in, &buf, &len) == 0 &&
	    store_rec_parse(buf, len, &out, &line, &why) == 0,
	    "format, then parse back");
	ok(strcmp(out.argv[1], in.argv[1]) == 0 &&
	    strcmp(out.argv[2], in.argv[2]) == 0 &&
	    strcmp(out.events[0].note, in.events[0].note) == 0 &&
	    strcmp(out.token, "abc.def") == 0 && out.source == STORE_CATALOG,
	    "newlines, spaces and high bytes survive exactly");
	free(buf);
	store_rec_free(&out);
}

static void
test_dir(void)
{
	char dir[] = "/tmp/store_test.XXXXXX", path[256], id[STORE_ID_MAX];
	struct store s;
	struct store_rec rec, back;
	char **ids;
	size_t n, line;
	const char *why;
	int fd;

	if (!mkdtemp(dir)) {
		tap_skip("store directory", "mkdtemp failed");
		return;
	}
	ok(store_open(&s, dir, 0) == -1 && strstr(s.err, "not a review store"),
	    "a directory without records/ is not a store");
	snprintf(path, sizeof path, "%s/new", dir);
	ok(store_open(&s, path, 0) == -1 && strstr(s.err, path),
	    "a missing store is an error naming it");
	ok(store_open(&s, path, 1) == 0 && store_lock(&s) == 0 &&
	    store_next_id(&s, id) == 0 && strcmp(id, "r000001") == 0,
	    "create, lock, first id r000001");
	store_rec_parse((const uint8_t *)good, strlen(good), &rec, &line,
	    &why);
	ok(store_write(&s, &rec) == 0 && store_read(&s, "r000001", &back) ==
	    0 && strcmp(back.argv[0], "npx") == 0, "write and read back");
	store_rec_free(&back);
	ok(store_next_id(&s, id) == 0 && strcmp(id, "r000002") == 0,
	    "next id r000002");
	snprintf(path, sizeof path, "%s/new/records/.r000002.tmp", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	close(fd);
	ok(store_list(&s, &ids, &n) == 0 && n == 1, "a writer's temp file "
	    "is not a record");
	store_list_free(ids, n);
	snprintf(path, sizeof path, "%s/new/records/r000003", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	ok(fd >= 0 && write(fd, good, strlen(good)) > 0 && close(fd) == 0 &&
	    store_read(&s, "r000003", &back) == -1 && strstr(s.err,
	    "holds record r000001"), "a record under another id is refused");
	ok(store_read(&s, "../x", &back) == -1 && strstr(s.err,
	    "not a record id"), "ids are checked before they become paths");
	snprintf(path, sizeof path, "%s/new/records/notes.txt", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	close(fd);
	ok(store_list(&s, &ids, &n) == -1 && strstr(s.err, "notes.txt"),
	    "a stranger in records/ is an error naming it");
	store_rec_free(&rec);
	store_close(&s);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	ok(system(path) == 0, "clean up");
}

static void
test_names(void)
{
	int all = 1;

	for (int v = 0; v < STORE_STATUS_MAX_; v++)
		all &= store_status_parse(store_status_name(v)) == v;
	for (int v = 0; v < STORE_SOURCE_MAX_; v++)
		all &= store_source_parse(store_source_name(v)) == v;
	ok(all, "every status and source name parses back to its value");
	ok(store_status_parse("approved") == -1 &&
	    store_status_parse("APPROVEDX") == -1 &&
	    store_source_parse("") == -1, "names are exact: other spellings "
	    "are -1");
}

int
main(void)
{
	test_names();
	test_parse();
	test_round_trip();
	test_dir();
	return tap_done();
}
