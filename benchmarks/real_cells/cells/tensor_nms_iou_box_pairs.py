# ruff: noqa
"""Non-max suppression over a detector's boxes: the IoU of every remaining pair computed on two new tensors.

source: Aladdin Persson's "Machine-Learning-Collection" YOLO-from-scratch utils and the many
        detection notebooks built on it (non_max_suppression: bboxes sorted by score; while bboxes:
        chosen_box = bboxes.pop(0); bboxes = [box for box in bboxes if box[0] != chosen_box[0] or
        intersection_over_union(torch.tensor(chosen_box[2:]), torch.tensor(box[2:])) <
        iou_threshold]), run on every image of a validation set
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: the boxes of an image as one (n, 4) tensor: each kept box's IoU with all the others in one expression (or torchvision.ops.batched_nms): the same boxes kept
size: 15 images of 150 boxes over the score threshold, 20 classes
scaled: yes: PASCAL VOC's test set has 4,952 images; a few of them, so the cell runs in seconds here
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(217)


def intersection_over_union(box1, box2):
    x1 = torch.max(box1[..., 0], box2[..., 0])
    y1 = torch.max(box1[..., 1], box2[..., 1])
    x2 = torch.min(box1[..., 2], box2[..., 2])
    y2 = torch.min(box1[..., 3], box2[..., 3])
    inter = (x2 - x1).clamp(0) * (y2 - y1).clamp(0)
    area1 = (box1[..., 2] - box1[..., 0]) * (box1[..., 3] - box1[..., 1])
    area2 = (box2[..., 2] - box2[..., 0]) * (box2[..., 3] - box2[..., 1])
    return inter / (area1 + area2 - inter + 1e-6)


def predictions(n):
    xy = torch.rand(n, 2) * 400
    wh = torch.rand(n, 2) * 120 + 10
    return [[int(c), float(s), *box] for c, s, box in
            zip(torch.randint(0, 20, (n,)), torch.rand(n), torch.cat([xy, xy + wh], dim=1).tolist())]


images = [predictions(150) for _ in range(15)]
iou_threshold = 0.5
# %% cell
def non_max_suppression(bboxes, iou_threshold):
    bboxes = sorted(bboxes, key=lambda box: box[1], reverse=True)
    kept = []
    while bboxes:
        chosen_box = bboxes.pop(0)
        bboxes = [box for box in bboxes  # expect: AIP201
                  if box[0] != chosen_box[0]
                  or intersection_over_union(torch.tensor(chosen_box[2:]), torch.tensor(box[2:])) < iou_threshold]  # expect: AIP201
        kept.append(chosen_box)
    return kept


kept_per_image = [non_max_suppression(boxes, iou_threshold) for boxes in images]  # expect: AIP201
