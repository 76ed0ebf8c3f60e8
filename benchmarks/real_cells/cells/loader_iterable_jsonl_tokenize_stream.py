# ruff: noqa
"""Sentiment training from a streaming IterableDataset that reads a JSON Lines file and tokenises each review in __iter__, behind a DataLoader without workers.

source: PyTorch notebooks and scripts for text data "too large for memory" that stream it with an
        IterableDataset (def __iter__(self): for line in open(self.path): rec = json.loads(line);
        ids = [vocab.get(w, UNK) for w in tokenize(rec["text"])]; yield torch.tensor(ids),
        rec["label"]), then a bag-of-embeddings classifier trained for an epoch
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers=2 with the lines split between the workers by torch.utils.data.get_worker_info() in __iter__ (every review once per epoch, the parsing beside the training; the gain needs free cores), or the file tokenised once into tensors when it is read for several epochs
size: 18,000 reviews of about 40 words, batch 64, one epoch of an embedding-bag classifier (20,000-word vocabulary, 64 dimensions)
scaled: no
kernel: torch
"""
# %% setup
import json
import re

import torch
from cell_data import reviews, temp_dir
from torch import nn
from torch.utils.data import DataLoader, IterableDataset

torch.manual_seed(524)
texts = reviews(18_000, length=40, seed=524)
jsonl_path = temp_dir() / "reviews.jsonl"
with open(jsonl_path, "w", encoding="utf-8") as fh:
    for i, text in enumerate(texts):
        fh.write(json.dumps({"id": i, "text": text.capitalize() + ".", "label": int("great" in text or "love" in text)}) + "\n")
word_counts = {}
for text in texts[:5_000]:
    for w in text.split():
        word_counts[w] = word_counts.get(w, 0) + 1
vocab = {w: i + 2 for i, w in enumerate(sorted(word_counts, key=word_counts.get, reverse=True)[:20_000])}
PAD, UNK, MAX_LEN = 0, 1, 48
TOKEN = re.compile(r"[a-z0-9']+")


class ReviewStream(IterableDataset):
    def __init__(self, path):
        self.path = path

    def __iter__(self):
        with open(self.path, encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                ids = [vocab.get(w, UNK) for w in TOKEN.findall(rec["text"].lower())][:MAX_LEN]
                ids += [PAD] * (MAX_LEN - len(ids))
                yield torch.tensor(ids), rec["label"]


class BagOfEmbeddings(nn.Module):
    def __init__(self, n_words, dim=64):
        super().__init__()
        self.embedding = nn.Embedding(n_words, dim, padding_idx=PAD)
        self.fc = nn.Linear(dim, 2)

    def forward(self, ids):
        mask = (ids != PAD).unsqueeze(2).float()
        pooled = (self.embedding(ids) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.fc(pooled)


model = BagOfEmbeddings(len(vocab) + 2)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
# %% cell
train_loader = DataLoader(ReviewStream(jsonl_path), batch_size=64)  # expect: AIP101
model.train()
total_loss, batches = 0.0, 0
for ids, labels in train_loader:  # expect: AIP101
    loss = criterion(model(ids), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    total_loss += loss.item()
    batches += 1
epoch_loss = total_loss / batches
