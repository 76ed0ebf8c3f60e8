# ruff: noqa
"""A retrieval-augmented-generation notebook embedding its chunks through a local model server's batch input: the chunks sent 128 at a time, a few requests in all.

source: RAG notebooks against embedding servers that take a list (Ollama's /api/embed with
        "input": [...], OpenAI-compatible /v1/embeddings, text-embeddings-inference): for batch in
        batches of 128 chunks: r = session.post(url, json={"model": ..., "input": batch}); vectors
        += r.json()[...]), against a local server answering in 20 ms
family: blocking-io
kind: healthy
verdict: AIP903|none
rewrite: no: 6 requests for 700 chunks; the batching is the fix
size: 700 chunks of about 80 words in 6 requests, 20 ms per request
scaled: no
kernel: data
"""
# %% setup
import requests

from cell_data import start_server, words

server, base = start_server(latency_ms=20)
session = requests.Session()
tokens = words(700 * 80, seed=726)
chunks = [" ".join(tokens[k:k + 80]) for k in range(0, len(tokens), 80)]
batch_size = 128
# %% cell
replies = []
for start in range(0, len(chunks), batch_size):
    batch = chunks[start:start + batch_size]
    resp = session.post(f"{base}/api/embed", json={"model": "nomic-embed-text", "input": batch}, timeout=60)
    resp.raise_for_status()
    replies.append(resp.json())
n_embedded = sum(len(chunks[s:s + batch_size]) for s in range(0, len(chunks), batch_size))
# %% teardown
server.kill()
