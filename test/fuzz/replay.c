/* replay.c - run a fuzz target over saved corpus files, without clang, so
 * `make check` exercises every corpus under the normal musl build.
 * usage: replay_TARGET FILE_OR_DIR... ; prints how many inputs ran. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#define INPUT_MAX (1 << 20)

static uint8_t input[INPUT_MAX];

static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return -1;
	}
	n = fread(input, 1, sizeof input, f);
	fclose(f);
	LLVMFuzzerTestOneInput(input, n);
	return 0;
}

int
main(int argc, char **argv)
{
	char path[4096];
	long count = 0;
	struct stat st;

	for (int i = 1; i < argc; i++) {
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: no such corpus: %s\n", argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (replay_file(argv[i]) != 0)
				return 1;
			count++;
			continue;
		}
		if (!(d = opendir(argv[i])))
			return 1;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
			if (replay_file(path) != 0)
				return 1;
			count++;
		}
		closedir(d);
	}
	printf("%ld inputs replayed\n", count);
	return count == 0;	/* an empty corpus proves nothing */
}
