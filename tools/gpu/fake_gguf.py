#!/usr/bin/env python3
"""Writes a random-weight GGUF of a Llama model's shape, for speed measurements only.

Pure Python 3 standard library (no numpy, no gguf-py): it runs on a GPU machine with nothing
installed. The tokenizer is a real one: every `tokenizer.*` key of --vocab (a GGUF holding a
vocabulary, e.g. llama.cpp's models/ggml-vocab-llama-bpe.gguf, Llama 3's 128256-token BPE) is
copied byte for byte, and the embedding and output tensors get that vocabulary's size.

Weights are Q4_0 (or Q8_0): every block has the same valid f16 scale and random quant bytes, so
the model computes finite numbers (no NaN, no inf) and its answers are noise. The random bytes
come from one pool (64 MiB of os.urandom) read at a random block offset per tensor, so ~4.5 GB
are written at disk speed. Norm weights are F32 ones.

  fake_gguf.py --vocab vocab.gguf --out model.gguf                 # Llama-3-8B shape, Q4_0
  fake_gguf.py --vocab vocab.gguf --out tiny.gguf --preset tiny    # 2 layers, n_embd 256
"""

import argparse
import os
import random
import struct
import sys
import time

GGUF_MAGIC = b"GGUF"
ALIGN = 32  # general.alignment's default

# GGUF value types
U8, I8, U16, I16, U32, I32, F32, BOOL, STRING, ARRAY, U64, I64, F64 = range(13)
_SCALAR = {U8: 1, I8: 1, U16: 2, I16: 2, U32: 4, I32: 4, F32: 4, BOOL: 1, U64: 8, I64: 8, F64: 8}

# ggml tensor types: (id, bytes per block, elements per block, weight std of one quant unit)
GGML_F32 = 0
QUANTS = {
    # Q4_0: f16 d + 16 bytes of nibbles; value = d * (nibble - 8), nibble uniform -> std ~4.61
    "q4_0": (2, 18, 32, 4.61),
    # Q8_0: f16 d + 32 int8; value = d * q, q uniform in [-128, 127] -> std ~73.9
    "q8_0": (8, 34, 32, 73.9),
}
FILE_TYPE = {"q4_0": 2, "q8_0": 7}  # llama_ftype: MOSTLY_Q4_0, MOSTLY_Q8_0

PRESETS = {
    # Meta-Llama-3-8B
    "8b": dict(n_embd=4096, n_layer=32, n_head=32, n_head_kv=8, n_ff=14336, ctx=8192,
               rope_theta=500000.0),
    # a few MB of layers for a CPU dry run (the vocabulary keeps its real size)
    "tiny": dict(n_embd=256, n_layer=2, n_head=4, n_head_kv=2, n_ff=768, ctx=8192,
                 rope_theta=500000.0),
}


class Reader:
    def __init__(self, data):
        self.d, self.o = data, 0

    def take(self, n):
        b = self.d[self.o:self.o + n]
        if len(b) != n:
            raise ValueError("truncated GGUF")
        self.o += n
        return b

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def string(self):
        return self.take(self.u64()).decode("utf-8")

    def skip_value(self, t):
        if t in _SCALAR:
            self.o += _SCALAR[t]
        elif t == STRING:
            n = self.u64()
            self.o += n
        elif t == ARRAY:
            et, n = self.u32(), self.u64()
            if et in _SCALAR:
                self.o += _SCALAR[et] * n
            else:
                for _ in range(n):
                    self.skip_value(et)
        else:
            raise ValueError(f"unknown GGUF value type {t}")


def read_kvs(path):
    """Returns [(key, type, raw bytes of the whole KV)] and {key: array length or None}."""
    with open(path, "rb") as f:
        data = f.read()
    r = Reader(data)
    if r.take(4) != GGUF_MAGIC:
        raise ValueError(f"{path}: not a GGUF file")
    version = r.u32()
    if version < 2:
        raise ValueError(f"{path}: GGUF version {version} is too old")
    r.u64()  # tensors
    n_kv = r.u64()
    kvs, lengths = [], {}
    for _ in range(n_kv):
        start = r.o
        key = r.string()
        t = r.u32()
        vstart = r.o
        if t == ARRAY:
            r.u32()
            lengths[key] = r.u64()
            r.o = vstart
        r.skip_value(t)
        kvs.append((key, t, data[start:r.o]))
    return kvs, lengths


def gstr(s):
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def kv(key, t, value):
    head = gstr(key) + struct.pack("<I", t)
    if t == STRING:
        return head + gstr(value)
    fmt = {U32: "<I", I32: "<i", F32: "<f", U64: "<Q", BOOL: "<?"}[t]
    return head + struct.pack(fmt, value)


def pad(n):
    return (ALIGN - n % ALIGN) % ALIGN


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--vocab", required=True, help="a GGUF whose tokenizer.* keys are copied")
    p.add_argument("--out", required=True)
    p.add_argument("--preset", choices=sorted(PRESETS), default="8b")
    for k in ("n_embd", "n_layer", "n_head", "n_head_kv", "n_ff", "ctx"):
        p.add_argument("--" + k.replace("_", "-"), type=int, dest=k)
    p.add_argument("--rope-theta", type=float, dest="rope_theta")
    p.add_argument("--type", choices=sorted(QUANTS), default="q4_0")
    p.add_argument("--std", type=float, default=0.02, help="weight standard deviation")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", default=None, help="general.name")
    a = p.parse_args(argv)

    shape = dict(PRESETS[a.preset])
    for k in shape:
        if getattr(a, k, None) is not None:
            shape[k] = getattr(a, k)
    n_embd, n_layer, n_head = shape["n_embd"], shape["n_layer"], shape["n_head"]
    n_head_kv, n_ff = shape["n_head_kv"], shape["n_ff"]
    if n_embd % n_head or n_head % n_head_kv:
        sys.exit("fake_gguf: n_embd must divide by n_head, n_head by n_head_kv")
    head_dim = n_embd // n_head
    n_embd_kv = head_dim * n_head_kv
    qtype, block_bytes, block_elems, unit_std = QUANTS[a.type]
    for dim in (n_embd, n_ff):
        if dim % block_elems:
            sys.exit(f"fake_gguf: {dim} is not a multiple of {block_elems} ({a.type} blocks)")

    vocab_kvs, lengths = read_kvs(a.vocab)
    tok = [x for x in vocab_kvs if x[0].startswith("tokenizer.")]
    n_vocab = lengths.get("tokenizer.ggml.tokens")
    if not n_vocab:
        sys.exit(f"fake_gguf: {a.vocab} has no tokenizer.ggml.tokens")

    name = a.name or f"kgscope random llama {a.preset} {a.type}"
    meta = [
        kv("general.architecture", STRING, "llama"),
        kv("general.name", STRING, name),
        kv("general.file_type", U32, FILE_TYPE[a.type]),
        kv("llama.vocab_size", U32, n_vocab),
        kv("llama.context_length", U32, shape["ctx"]),
        kv("llama.embedding_length", U32, n_embd),
        kv("llama.block_count", U32, n_layer),
        kv("llama.feed_forward_length", U32, n_ff),
        kv("llama.attention.head_count", U32, n_head),
        kv("llama.attention.head_count_kv", U32, n_head_kv),
        kv("llama.rope.freq_base", F32, shape["rope_theta"]),
        kv("llama.rope.dimension_count", U32, head_dim),
        kv("llama.attention.layer_norm_rms_epsilon", F32, 1e-5),
    ] + [raw for _, _, raw in tok]

    # (name, ne (ggml order: row length first), quantised?)
    tensors = [("token_embd.weight", (n_embd, n_vocab), True)]
    for i in range(n_layer):
        b = f"blk.{i}."
        tensors += [
            (b + "attn_norm.weight", (n_embd,), False),
            (b + "attn_q.weight", (n_embd, n_embd), True),
            (b + "attn_k.weight", (n_embd, n_embd_kv), True),
            (b + "attn_v.weight", (n_embd, n_embd_kv), True),
            (b + "attn_output.weight", (n_embd, n_embd), True),
            (b + "ffn_norm.weight", (n_embd,), False),
            (b + "ffn_gate.weight", (n_embd, n_ff), True),
            (b + "ffn_up.weight", (n_embd, n_ff), True),
            (b + "ffn_down.weight", (n_ff, n_embd), True),
        ]
    tensors += [("output_norm.weight", (n_embd,), False), ("output.weight", (n_embd, n_vocab), True)]

    def nbytes(ne, q):
        n = 1
        for d in ne:
            n *= d
        return n // block_elems * block_bytes if q else n * 4

    infos, offset = [], 0
    for tname, ne, q in tensors:
        infos.append(gstr(tname) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", d) for d in ne)
                     + struct.pack("<IQ", qtype if q else GGML_F32, offset))
        offset += nbytes(ne, q)
        offset += pad(offset)

    # The random pool: whole blocks, every block's f16 scale set to the same value.
    rng = random.Random(a.seed)
    scale = struct.pack("<e", a.std / unit_std)
    pool_blocks = (64 << 20) // block_bytes
    pool = bytearray(os.urandom(pool_blocks * block_bytes))
    pool[0::block_bytes] = scale[0:1] * pool_blocks
    pool[1::block_bytes] = scale[1:2] * pool_blocks
    pool = bytes(pool)
    ones = struct.pack("<f", 1.0) * n_embd

    t0 = time.time()
    tmp = a.out + ".part"
    with open(tmp, "wb") as f:
        head = GGUF_MAGIC + struct.pack("<IQQ", 3, len(tensors), len(meta)) + b"".join(meta) + b"".join(infos)
        f.write(head + b"\0" * pad(len(head)))
        for (tname, ne, q) in tensors:
            n = nbytes(ne, q)
            if not q:
                f.write(ones[:n] if n <= len(ones) else struct.pack("<f", 1.0) * (n // 4))
            else:
                pos = rng.randrange(pool_blocks) * block_bytes
                left = n
                while left:
                    chunk = min(left, len(pool) - pos)
                    f.write(pool[pos:pos + chunk])
                    left -= chunk
                    pos = 0
            f.write(b"\0" * pad(n))
    os.replace(tmp, a.out)
    dt = time.time() - t0
    n_params = sum(nbytes(ne, False) // 4 for _, ne, _ in tensors)
    print(f"fake_gguf: wrote {a.out}: {os.path.getsize(a.out) / 1e9:.2f} GB in {dt:.1f} s; "
          f"llama, {n_params / 1e9:.2f} B parameters, {a.type}, n_embd {n_embd}, {n_layer} layers, "
          f"{n_head} heads ({n_head_kv} KV), FFN {n_ff}, vocab {n_vocab} ({len(tok)} tokenizer keys "
          f"from {os.path.basename(a.vocab)}), context {shape['ctx']}, rope theta {shape['rope_theta']:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
