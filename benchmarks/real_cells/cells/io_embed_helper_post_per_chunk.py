# ruff: noqa
"""A retrieval-augmented-generation notebook embedding its document chunks through a local model server: a helper of an earlier cell POSTs one chunk and returns the answer, called for each chunk in a list comprehension, so every request waits for the one before.

source: RAG and LLM notebooks that index documents with a local embedding server (Ollama's
        /api/embeddings, a llama.cpp or text-embeddings-inference endpoint: def embed(text): r =
        requests.post(url, json={"model": "nomic-embed-text", "prompt": text}); return r.json();
        vectors = [embed(c) for c in chunks]), against a local server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: the same embed helper mapped over the chunks by a thread pool (with ThreadPoolExecutor(max_workers=8) as pool: vectors = list(pool.map(embed, chunks))), the same answers in the same order, or the server's batch input if it has one
size: 90 chunks of about 80 words, 20 ms per request
scaled: yes: a handful of documents; real indexes have thousands of chunks
kernel: data
"""
# %% setup
import numpy as np
import requests

from cell_data import start_server, words

server, base = start_server(latency_ms=20)
session = requests.Session()


def embed(text, model="nomic-embed-text"):
    resp = session.post(f"{base}/api/embeddings", json={"model": model, "prompt": text}, timeout=30)
    resp.raise_for_status()
    return resp.json()


tokens = words(90 * 80, seed=725)
chunks = [" ".join(tokens[k:k + 80]) for k in range(0, len(tokens), 80)]
# %% cell
vectors = [embed(chunk) for chunk in chunks]  # expect: AIP402
index = {i: (chunk, vec) for i, (chunk, vec) in enumerate(zip(chunks, vectors))}
# %% teardown
server.kill()
