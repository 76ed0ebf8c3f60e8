# ruff: noqa
"""A CartPole policy evaluated on 1,024 episodes at once: the cart-pole equations stepped on arrays of states (a vectorised environment) and the policy called once per step on the whole batch, under torch.inference_mode().

source: reinforcement-learning notebooks that evaluate a policy on vectorised environments (gym's
        SyncVectorEnv / envpool style: obs = envs.reset(); with torch.inference_mode(): actions =
        policy(torch.as_tensor(obs)).argmax(1); obs, rewards, dones = envs.step(actions)), here
        with the classic-control equations written with NumPy arrays in an earlier cell
family: no-grad
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: one forward pass per time step for 1,024 episodes, autograd off; the step count is a recurrence (each state needs the last)
size: 1,024 episodes of up to 500 steps, a 4-128-128-2 MLP
scaled: no
kernel: torch
"""
# %% setup
import numpy as np
import torch
from torch import nn

torch.manual_seed(628)
GRAVITY, MASSCART, MASSPOLE, LENGTH, FORCE, TAU = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02


def step_batch(state, action):
    x, x_dot, theta, theta_dot = state.T
    force = np.where(action == 1, FORCE, -FORCE)
    cos, sin = np.cos(theta), np.sin(theta)
    total = MASSCART + MASSPOLE
    temp = (force + MASSPOLE * LENGTH * theta_dot ** 2 * sin) / total
    theta_acc = (GRAVITY * sin - cos * temp) / (LENGTH * (4.0 / 3.0 - MASSPOLE * cos ** 2 / total))
    x_acc = temp - MASSPOLE * LENGTH * theta_acc * cos / total
    new = np.stack([x + TAU * x_dot, x_dot + TAU * x_acc, theta + TAU * theta_dot, theta_dot + TAU * theta_acc], axis=1)
    failed = (np.abs(new[:, 0]) > 2.4) | (np.abs(new[:, 2]) > 0.2095)
    return new, failed


policy = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 2))
with torch.no_grad():  # stands in for training: push left when the pole leans left, right otherwise
    for layer in (policy[0], policy[2], policy[4]):
        layer.weight.zero_()
        layer.bias.zero_()
    policy[0].weight[:2, 2] = torch.tensor([-8.0, 8.0])
    policy[0].weight[:2, 3] = torch.tensor([-2.0, 2.0])
    policy[2].weight[0, 0] = policy[2].weight[1, 1] = 1.0
    policy[4].weight[0, 0] = policy[4].weight[1, 1] = 1.0
n_envs = 1_024
# %% cell
policy.eval()
rng = np.random.default_rng(628)
state = rng.uniform(-0.15, 0.15, (n_envs, 4))
alive = np.ones(n_envs, dtype=bool)
returns = np.zeros(n_envs)
with torch.inference_mode():
    for t in range(500):
        actions = policy(torch.as_tensor(state, dtype=torch.float32)).argmax(dim=1).numpy()
        state, failed = step_batch(state, actions)
        returns += alive
        alive &= ~failed
        if not alive.any():
            break
mean_return, solved = returns.mean(), (returns >= 475).mean()
