# ruff: noqa
"""A trained CartPole policy evaluated over 20 episodes: the policy network is called on one state per step, in eval mode with autograd on, 10,000 small forward passes.

source: reinforcement-learning tutorials and course notebooks (REINFORCE / DQN on CartPole: after
        training, for episode in range(n): state = env.reset(); while not done: action =
        policy(torch.as_tensor(state)).argmax().item(); state, reward, done = env.step(action)),
        here with the classic-control cart-pole equations written in an earlier cell instead of gym
family: no-grad
kind: slow
verdict: AIP907
rewrite: yes: the rollouts under torch.inference_mode() (the same actions, no graph per step); faster still, the 20 episodes stepped together as a batch of states (a vectorised environment), one forward pass per step for all of them
size: 20 episodes of up to 500 steps, a 4-128-128-2 MLP
scaled: no
kernel: torch
unsure: each call's cost is Python's dispatch of 5 layers on a 4-value input with autograd recording;
        AIP502 (autograd on in evaluation) and AIP506 (many small eager calls) both name it, and the
        larger win, batching the episodes, is told by neither
"""
# %% setup
import math

import numpy as np
import torch
from torch import nn

torch.manual_seed(619)


class CartPole:
    gravity, masscart, masspole, length, force_mag, tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02

    def reset(self, seed=None):
        self.rng = np.random.default_rng(seed)
        self.state = self.rng.uniform(-0.05, 0.05, 4)
        self.steps = 0
        return self.state.astype(np.float32)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        cos, sin = math.cos(theta), math.sin(theta)
        total_mass = self.masscart + self.masspole
        temp = (force + self.masspole * self.length * theta_dot ** 2 * sin) / total_mass
        theta_acc = (self.gravity * sin - cos * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * cos ** 2 / total_mass))
        x_acc = temp - self.masspole * self.length * theta_acc * cos / total_mass
        self.state = np.array([x + self.tau * x_dot, x_dot + self.tau * x_acc,
                               theta + self.tau * theta_dot, theta_dot + self.tau * theta_acc])
        self.steps += 1
        done = abs(self.state[0]) > 2.4 or abs(self.state[2]) > 0.2095 or self.steps >= 500
        return self.state.astype(np.float32), 1.0, done


policy = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 2))
with torch.no_grad():  # stands in for training: push left when the pole leans left, right otherwise
    policy[4].weight.zero_()
    policy[4].bias.zero_()
    policy[0].weight.zero_()
    policy[0].weight[:2, 2] = torch.tensor([-8.0, 8.0])
    policy[0].weight[:2, 3] = torch.tensor([-2.0, 2.0])
    policy[2].weight.zero_()
    policy[2].weight[0, 0] = policy[2].weight[1, 1] = 1.0
    policy[4].weight[0, 0] = policy[4].weight[1, 1] = 1.0
env = CartPole()
# %% cell
policy.eval()
episode_returns = []
for episode in range(20):
    state, done, total = env.reset(seed=episode), False, 0.0
    while not done:  # expect: AIP502|AIP506
        logits = policy(torch.as_tensor(state))  # expect: AIP502|AIP506
        action = int(logits.argmax())
        state, reward, done = env.step(action)
        total += reward
    episode_returns.append(total)
mean_return = sum(episode_returns) / len(episode_returns)
