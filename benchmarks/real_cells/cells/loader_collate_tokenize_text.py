# ruff: noqa
"""Text classification where the DataLoader's collate_fn tokenises and numericalises every item.

source: PyTorch tutorials (pytorch/tutorials), beginner_source/text_sentiment_ngrams_tutorial.py
        (collate_batch runs text_pipeline on each item, EmbeddingBag model, train(dataloader) per
        epoch), with a regex tokenizer and a dict vocabulary in place of torchtext's
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: numericalise the texts once before the loop (or num_workers)
size: 5,000 articles of 40 words, batch 8
scaled: yes: AG_NEWS has 120,000 training articles
kernel: torch
"""
# %% setup
import re
from collections import Counter

import torch
from cell_data import reviews, rng
from torch import nn
from torch.utils.data import DataLoader

torch.manual_seed(3)
texts = reviews(5_000, length=40, seed=74)
train_iter = list(zip(rng(75).integers(1, 5, 5_000).tolist(), texts))


def tokenizer(text):
    return re.findall(r"[a-z0-9']+", text.lower())


counter = Counter(tok for _, text in train_iter for tok in tokenizer(text))
vocab = {tok: i + 1 for i, (tok, _) in enumerate(counter.most_common())}


def text_pipeline(text):
    return [vocab.get(tok, 0) for tok in tokenizer(text)]


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(_label - 1)
        processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    return torch.tensor(label_list, dtype=torch.int64), torch.cat(text_list), offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim)
        self.fc = nn.Linear(embed_dim, num_class)

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


model = TextClassificationModel(len(vocab) + 1, 64, 4)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
train_dataloader = DataLoader(train_iter, batch_size=8, shuffle=True, collate_fn=collate_batch)


def train(dataloader):
    model.train()
    for label, text, offsets in dataloader:
        optimizer.zero_grad()
        loss = criterion(model(text, offsets), label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
# %% cell
for epoch in range(1, 2):
    train(train_dataloader)  # expect: AIP101
