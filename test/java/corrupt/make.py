#!/usr/bin/env python3
# make.py - the hand-corrupted class files of this directory, each one
# real javac 17 output (../classes) with one deliberate defect. Run from
# this directory to recreate them; classfile_test.c expects every one to
# be refused, and the fuzz target starts from them.
import struct

def pool(b):
    """(offset, tag, length) of every constant pool entry; index order."""
    n = struct.unpack('>H', b[8:10])[0]
    off, i, out = 10, 1, {}
    while i < n:
        tag = b[off]
        size = {1: 3 + struct.unpack('>H', b[off+1:off+3])[0], 3: 5, 4: 5,
                5: 9, 6: 9, 7: 3, 8: 3, 9: 5, 10: 5, 11: 5, 12: 5, 15: 4,
                16: 3, 17: 5, 18: 5}[tag]
        out[i] = (off, tag, size)
        off += size
        i += 2 if tag in (5, 6) else 1
    return out, off

def first(p, tag):
    return next(v for k, v in sorted(p.items()) if v[1] == tag)

def put(name, b):
    open(name, 'wb').write(bytes(b))

tool = bytearray(open('../classes/benign/Tool.class', 'rb').read())
token = bytearray(open('../classes/benign/Tool$Token.class', 'rb').read())
p, end = pool(tool)

b = bytearray(tool); b[8:10] = b'\xff\xff'
put('count-too-big.class', b)            # pool count beyond the file

b = bytearray(tool); off = first(p, 1)[0]; b[off + 3] = 0xc1
put('bad-utf8.class', b)                 # overlong UTF-8 in the first Utf8

b = bytearray(tool); off = first(p, 7)[0]
ints = [k for k, v in p.items() if v[1] == 3]
if not ints:                             # no Integer: point at a Methodref
    ints = [k for k, v in p.items() if v[1] == 10]
b[off+1:off+3] = struct.pack('>H', ints[0])
put('class-to-integer.class', b)         # Class -> not a Utf8

b = bytearray(token); pt, _ = pool(b)
last = max(pt)                           # make the last slot a Long
off, tag, size = pt[last]
b[off:off+size] = bytes([5]) + bytes(8)[:size-1] + bytes(max(0, 9 - size))
put('long-last-slot.class', b[:len(b)])

put('truncated-code.class', tool[:len(tool) - 40])   # cut inside attributes

put('trailing-byte.class', tool + b'\x00')

b = bytearray(tool)
nat = first(p, 12)                       # the first NameAndType's descriptor
desc_idx = struct.unpack('>H', b[nat[0]+3:nat[0]+5])[0]
doff = p[desc_idx][0]
b[doff + 3] = ord('X')                   # '(' or 'L' -> 'X'
put('bad-descriptor.class', b)

b = bytearray(tool); off = first(p, 18)[0]
b[off+1:off+3] = b'\x7f\xff'             # bootstrap index 32767
put('indy-no-bootstrap.class', b)

b = bytearray(tool); off = first(p, 8)[0]
b[off] = 19                              # String -> Module
put('module-tag.class', b)

b = bytearray(tool); off = first(p, 15)[0]
b[off+1] = 1                             # invokeStatic -> getField
put('mhandle-kind.class', b)
