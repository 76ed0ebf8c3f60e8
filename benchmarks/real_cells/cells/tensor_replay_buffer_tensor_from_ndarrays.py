# ruff: noqa
"""DQN updates whose replay batches become tensors with torch.tensor(states) on a tuple of NumPy arrays: torch reads them element by element.

source: deep Q-learning notebooks and RL libraries' replay buffers (batch = random.sample(buffer,
        batch_size); states, actions, rewards, next_states, dones = zip(*batch); states =
        torch.tensor(states, dtype=torch.float32)), the line PyTorch warns about ("Creating a
        tensor from a list of numpy.ndarrays is extremely slow")
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: torch.from_numpy(np.stack(states)) (and the same for next_states): the same tensors from one contiguous array
size: a buffer of 20,000 transitions of 128-value observations, 150 updates of batch 128
scaled: no
kernel: torch
unsure: no rule of the catalog names torch.tensor on a list of arrays (the conversion loops in C++, one
        element at a time); any code on these lines is accepted
"""
# %% setup
import random
from collections import deque

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

random.seed(419)
torch.manual_seed(419)
rng = np.random.default_rng(419)
obs_dim, n_actions, gamma = 128, 6, 0.99
buffer = deque(maxlen=50_000)
state = rng.normal(size=obs_dim).astype(np.float32)
for _ in range(20_000):
    next_state = (0.9 * state + rng.normal(0, 0.3, obs_dim)).astype(np.float32)
    buffer.append((state, int(rng.integers(n_actions)), float(rng.normal()), next_state, bool(rng.random() < 0.01)))
    state = next_state
policy_net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))
target_net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.Adam(policy_net.parameters(), lr=1e-3)
# %% cell
for update in range(150):
    batch = random.sample(buffer, 128)
    states, actions, rewards, next_states, dones = zip(*batch)
    states = torch.tensor(states, dtype=torch.float32)  # expect: *
    next_states = torch.tensor(next_states, dtype=torch.float32)  # expect: *
    actions = torch.tensor(actions).unsqueeze(1)
    rewards = torch.tensor(rewards, dtype=torch.float32)
    dones = torch.tensor(dones, dtype=torch.float32)
    q = policy_net(states).gather(1, actions).squeeze(1)
    with torch.no_grad():
        target = rewards + gamma * target_net(next_states).max(1).values * (1 - dones)
    loss = F.smooth_l1_loss(q, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
