# ruff: noqa
"""Instruction fine-tuning batches: pre-tokenised lists padded by a custom collate_fn, a transformer step.

source: Build a Large Language Model From Scratch (rasbt/LLMs-from-scratch), ch07
        (InstructionDataset tokenises once in __init__; custom_collate_fn pads each batch with
        Python lists and stacks; DataLoader with num_workers=0)
family: dataloader
kind: healthy
verdict: AIP907|AIP908
rewrite: no: padding a batch costs a few percent of the model step; workers would not help
size: 350 entries of 40 to 120 tokens, batch 8, a 1-layer transformer of width 64 over 500 token ids
scaled: yes: the book fine-tunes GPT-2 (124 to 355 million weights) on 1,100 entries
kernel: torch
"""
# %% setup
import torch
from cell_data import rng
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(5)
r = rng(76)
encoded_texts = [r.integers(0, 500, n).tolist() for n in r.integers(40, 120, 350)]


class InstructionDataset(Dataset):
    def __init__(self, encoded):
        self.encoded_texts = encoded

    def __getitem__(self, index):
        return self.encoded_texts[index]

    def __len__(self):
        return len(self.encoded_texts)


def custom_collate_fn(batch, pad_token_id=0, ignore_index=-100):
    batch_max_length = max(len(item) + 1 for item in batch)
    inputs_lst, targets_lst = [], []
    for item in batch:
        new_item = item.copy() + [pad_token_id]
        padded = new_item + [pad_token_id] * (batch_max_length - len(new_item))
        inputs = torch.tensor(padded[:-1])
        targets = torch.tensor(padded[1:])
        targets[len(item):] = ignore_index
        inputs_lst.append(inputs)
        targets_lst.append(targets)
    return torch.stack(inputs_lst), torch.stack(targets_lst)


emb = nn.Embedding(500, 64)
layer = nn.TransformerEncoderLayer(64, nhead=4, dim_feedforward=128, batch_first=True)
body = nn.TransformerEncoder(layer, 1)
head = nn.Linear(64, 500)
params = [*emb.parameters(), *body.parameters(), *head.parameters()]
optimizer = torch.optim.AdamW(params, lr=5e-4)
train_loader = DataLoader(InstructionDataset(encoded_texts), batch_size=8, shuffle=True,
                          collate_fn=custom_collate_fn, drop_last=True)
# %% cell
for input_batch, target_batch in train_loader:
    optimizer.zero_grad()
    logits = head(body(emb(input_batch)))
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten(), ignore_index=-100)
    loss.backward()
    optimizer.step()
