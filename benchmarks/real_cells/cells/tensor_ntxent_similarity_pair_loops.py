# ruff: noqa
"""SimCLR's NT-Xent contrastive loss written with loops: the cosine similarity of every pair of the 2N projections computed one torch.dot at a time into a matrix, then each row's denominator summed with a generator of torch.exp terms.

source: self-supervised-learning tutorials and blog posts that spell out the contrastive loss
        before the matrix form (for i in range(2 * N): for j in range(2 * N): sim[i, j] =
        torch.dot(z[i], z[j]) / (z[i].norm() * z[j].norm()); then loss += -log(exp(sim[i, pos] / t)
        / sum(exp(sim[i, k] / t) for k != i))), evaluated on a batch of projections
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: z = F.normalize(torch.cat([z1, z2]), dim=1); sim = z @ z.T / tau with the diagonal set to -inf; loss = F.cross_entropy(sim, (torch.arange(2 * N) + N) % (2 * N)) (equal within 1e-5)
size: a batch of 2 x 80 projections of 128 dimensions (25,600 pairs)
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(718)
N, dim, tau = 80, 128, 0.5
h = torch.randn(N, dim)
z1 = h + 0.3 * torch.randn(N, dim)
z2 = h + 0.3 * torch.randn(N, dim)
# %% cell
def nt_xent(z1, z2, tau):
    z = torch.cat([z1, z2])
    n = z.shape[0]
    sim = torch.zeros(n, n)
    for i in range(n):  # expect: AIP201
        for j in range(n):  # expect: AIP201
            sim[i, j] = torch.dot(z[i], z[j]) / (z[i].norm() * z[j].norm())  # expect: AIP201
    loss = 0.0
    for i in range(n):
        pos = (i + n // 2) % n
        denom = sum(torch.exp(sim[i, k] / tau) for k in range(n) if k != i)  # expect: AIP201
        loss += -torch.log(torch.exp(sim[i, pos] / tau) / denom)
    return loss / n


loss = nt_xent(z1, z2, tau).item()
