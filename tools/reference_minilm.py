# An independent numpy implementation of all-MiniLM-L6-v2 (BERT, mean pooling, unit length):
# where the embeddings pinned in tests/kghalubench.rs come from. Run it with numpy, tokenizers
# and safetensors installed: python3 tools/reference_minilm.py ~/.cache/kgscope/models/all-MiniLM-L6-v2
import json, sys, numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer
d = sys.argv[1]
w = load_file(d + "/model.safetensors")
cfg = json.load(open(d + "/config.json"))
tok = Tokenizer.from_file(d + "/tokenizer.json")
tok.no_padding(); tok.no_truncation()
def g(name):
    for k in (name, "bert." + name):
        if k in w: return w[k].astype(np.float64)
    raise KeyError(name)
def ln(x, p):
    m = x.mean(-1, keepdims=True); v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + cfg["layer_norm_eps"]) * g(p + ".weight") + g(p + ".bias")
from math import erf, sqrt
verf = np.vectorize(erf)
def gelu(x): return 0.5 * x * (1 + verf(x / sqrt(2)))
def embed(text):
    e = tok.encode(text)
    ids = np.array(e.ids); n = len(ids)
    x = g("embeddings.word_embeddings.weight")[ids] + g("embeddings.position_embeddings.weight")[:n] + g("embeddings.token_type_embeddings.weight")[0]
    x = ln(x, "embeddings.LayerNorm")
    H = cfg["num_attention_heads"]; D = cfg["hidden_size"] // H
    for l in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{l}."
        q = x @ g(p+"attention.self.query.weight").T + g(p+"attention.self.query.bias")
        k = x @ g(p+"attention.self.key.weight").T + g(p+"attention.self.key.bias")
        v = x @ g(p+"attention.self.value.weight").T + g(p+"attention.self.value.bias")
        q = q.reshape(n, H, D).transpose(1, 0, 2); k = k.reshape(n, H, D).transpose(1, 0, 2); v = v.reshape(n, H, D).transpose(1, 0, 2)
        a = q @ k.transpose(0, 2, 1) / np.sqrt(D)
        a = np.exp(a - a.max(-1, keepdims=True)); a /= a.sum(-1, keepdims=True)
        c = (a @ v).transpose(1, 0, 2).reshape(n, H * D)
        c = c @ g(p+"attention.output.dense.weight").T + g(p+"attention.output.dense.bias")
        x = ln(x + c, p + "attention.output.LayerNorm")
        f = gelu(x @ g(p+"intermediate.dense.weight").T + g(p+"intermediate.dense.bias"))
        f = f @ g(p+"output.dense.weight").T + g(p+"output.dense.bias")
        x = ln(x + f, p + "output.LayerNorm")
    m = x.mean(0)
    return m / np.linalg.norm(m)
texts = ["Paris is the capital and largest city of France.", "The capital of France is Paris.", "Bananas are a yellow fruit rich in potassium."]
E = [embed(t) for t in texts]
for t, e in zip(texts, E): print(json.dumps(t), [round(float(v), 5) for v in e[:6]])
print("cos01", float(E[0] @ E[1]), "cos02", float(E[0] @ E[2]))
