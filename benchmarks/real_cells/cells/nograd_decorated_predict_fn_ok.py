# ruff: noqa
"""Test-set predictions through a predict() helper of an earlier cell decorated with @torch.inference_mode(): the loop shows no no_grad, yet autograd is off.

source: PyTorch notebooks and scripts that decorate their prediction helper (@torch.no_grad() or
        @torch.inference_mode() above def predict(model, batch): model.eval(); return
        model(batch).softmax(1)) and call it over the test batches, keeping the predicted classes
family: no-grad
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the decorator already turns autograd off for every call; the batches of 256 through a 784-512-512-10 MLP are arithmetic, not Python
size: 12,800 test images of 784 values in 50 batches of 256
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(427)
model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
test_batches = list(torch.rand(12_800, 784).split(256))


@torch.inference_mode()
def predict(model, batch):
    model.eval()
    return model(batch).softmax(dim=1)
# %% cell
predictions = []
for xb in test_batches:
    probs = predict(model, xb)
    predictions.append(probs.argmax(dim=1))
predictions = torch.cat(predictions)
class_counts = torch.bincount(predictions, minlength=10)
