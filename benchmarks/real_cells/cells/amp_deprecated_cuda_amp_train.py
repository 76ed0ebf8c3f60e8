# ruff: noqa
"""A training loop with torch.cuda.amp's autocast and GradScaler, as the seed article writes it.

source: the seed article, chapter 1 ("from torch.cuda.amp import autocast, GradScaler"; scaler =
        GradScaler(); with autocast(): ...), inside an ordinary training loop
family: amp
kind: slow
verdict: AIP907|AIP908
rewrite: yes: torch.autocast("cuda", ...) and torch.amp.GradScaler("cuda") (the same speed: the
         deprecated spelling is not slower)
size: 150 batches of 128 x 256, a 256-512-512-10 MLP
scaled: no
kernel: torch
cpu: without CUDA both classes disable themselves (with a warning), so the loop runs in float32;
     the deprecation holds on any machine
unsure: a deprecation, not a cost: whether it should be shown without runtime evidence is a choice
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(12)
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [(torch.randn(128, 256), torch.randint(0, 10, (128,))) for _ in range(150)]
# %% cell
from torch.cuda.amp import autocast, GradScaler  # expect: AIP503

scaler = GradScaler()  # expect: AIP503
for inputs, labels in batches:
    optimizer.zero_grad()
    with autocast():  # expect: AIP503
        outputs = model(inputs)
        loss = criterion(outputs, labels)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
