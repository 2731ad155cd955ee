#!/bin/sh
# fuzz.sh - build each libFuzzer target with clang (ASan + UBSan) and run
# it for FUZZ_SECONDS (default 60) on its corpus; new inputs are kept in
# test/fuzz/corpus/NAME. usage: sh scripts/fuzz.sh TARGET...
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
seconds=${FUZZ_SECONDS:-60}
if ! command -v clang >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || { echo "fuzz: clang is missing" >&2; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
fi
# the jail's filter is generated at build time; common/ links against it
make -s build/deps/.stamp-bearssl build/deps/.stamp-libseccomp \
	build/gen/seccomp_bpf.c
out=build/fuzz
mkdir -p "$out"
for name in "$@"; do
	clang -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -D_GNU_SOURCE -I. \
		-isystem build/deps/include \
		"test/fuzz/fuzz_$name.c" common/*/*.c build/gen/seccomp_bpf.c \
		build/deps/lib/libbearssl.a \
		build/deps/lib/libseccomp.a \
		-o "$out/fuzz_$name"
	corpus=test/fuzz/corpus/$name
	new=$out/new-$name
	mkdir -p "$corpus"
	rm -rf "$new" && mkdir -p "$new"
	echo "fuzz: $name for ${seconds}s"
	"$out/fuzz_$name" -max_total_time="$seconds" -max_len=70000 \
		-artifact_prefix="$out/" -print_final_stats=1 "$new" "$corpus" 2>"$out/$name.log" ||
		{ tail -n 40 "$out/$name.log"; exit 1; }
	grep -E '^stat::number_of_executed_units' "$out/$name.log" || true
	# keep only the new inputs that add coverage
	"$out/fuzz_$name" -merge=1 "$corpus" "$new" 2>>"$out/$name.log" >/dev/null
	echo "fuzz: $name corpus now $(ls "$corpus" | wc -l) inputs"
done
