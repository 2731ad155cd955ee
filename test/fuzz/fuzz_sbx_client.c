/* fuzz_sbx_client.c - the client's reading of the sandbox service's answer
 * (sbx_answer_read, common/sandbox/sbx_client.c) under any frame sequence a hostile service can send.
 * The input is frames: type:u8 | len:u16 big-endian | payload[len] (a
 * short tail is one last frame of what is left). Invariants: output and a
 * result only after one STARTED; a PING answered only at its exact size;
 * every refusal and result within its caps; a step that ends the answer
 * ends it, and a broken frame always says why. */
#include <string.h>

#include "common/sandbox/sbx_client.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbx_answer a;
	size_t off = 0;

	memset(&a, 0, sizeof a);
	while (off < size) {
		uint8_t type = data[off++];
		size_t len = 0;
		int was_started = a.started;
		char err[128] = "";
		enum sbx_answer_step st;

		if (size - off >= 2) {
			len = (size_t)data[off] << 8 | data[off + 1];
			off += 2;
		}
		if (len > size - off)
			len = size - off;
		st = sbx_answer_read(&a, type, data + off, len, err,
		    sizeof err);
		off += len;
		switch (st) {
		case SBX_ANSWER_MORE:
			FUZZ_ASSERT(type == FRAME_STARTED ? !was_started &&
			    a.started : type == FRAME_PING &&
			    len != PROTO_PING_LEN);
			break;
		case SBX_ANSWER_OUTPUT:
			FUZZ_ASSERT(was_started && (type == FRAME_STDOUT ||
			    type == FRAME_STDERR));
			break;
		case SBX_ANSWER_PING:
			FUZZ_ASSERT(type == FRAME_PING &&
			    len == PROTO_PING_LEN);
			break;
		case SBX_ANSWER_RESULT:
			FUZZ_ASSERT(was_started && type == FRAME_EXIT);
			FUZZ_ASSERT(strlen(a.res.detail) <= SBX_DETAIL_MAX);
			return 0;
		case SBX_ANSWER_REFUSED:
			FUZZ_ASSERT(type == FRAME_ERROR);
			FUZZ_ASSERT(strlen(a.refusal.message) <=
			    PROTO_TEXT_MAX);
			return 0;
		case SBX_ANSWER_BAD:
			FUZZ_ASSERT(err[0] != '\0');
			return 0;
		default:
			FUZZ_ASSERT(0);
		}
	}
	return 0;
}
