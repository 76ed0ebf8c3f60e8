# ruff: noqa
"""Knowledge distillation: a student trained on a frozen teacher's softened outputs, the teacher's forward pass under torch.no_grad() inside the training loop.

source: knowledge-distillation tutorials (PyTorch's "Knowledge Distillation Tutorial", Hinton et
        al.'s soft targets: with torch.no_grad(): teacher_logits = teacher(x); loss = T * T *
        KL(log_softmax(student / T), softmax(teacher / T)) + cross-entropy), a large MLP
        teacher and a small student on flattened images
family: no-grad
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the teacher runs without autograd already and the student's passes need it to train; the matrix products are the work
size: 25 batches of 256 images of 784 values, a 784-1200-1200-10 teacher and a 784-128-10 student
scaled: no
kernel: torch
"""
# %% setup
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(527)
teacher = nn.Sequential(nn.Linear(784, 1200), nn.ReLU(), nn.Linear(1200, 1200), nn.ReLU(), nn.Linear(1200, 10))
student = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
batches = [(torch.rand(256, 784), torch.randint(0, 10, (256,))) for _ in range(25)]
optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
T, alpha = 4.0, 0.7
# %% cell
teacher.eval()
student.train()
for xb, yb in batches:
    with torch.no_grad():
        teacher_logits = teacher(xb)
    student_logits = student(xb)
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=1), F.softmax(teacher_logits / T, dim=1),
                    reduction="batchmean") * T * T
    loss = alpha * soft + (1 - alpha) * F.cross_entropy(student_logits, yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
