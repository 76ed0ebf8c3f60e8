# ruff: noqa
"""Scoring 110 model responses by POSTing each prompt to a local model server, one after another.

source: Build a Large Language Model From Scratch (rasbt/LLMs-from-scratch), ch07 (query_model with
        urllib.request against Ollama on localhost, then generate_model_scores looping over
        test_data), against a local server answering in 10 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: the requests in a thread pool (a local model server answers several at once)
size: 110 entries (the book's test set)
scaled: no: the book's server takes seconds per answer; 10 ms here
kernel: data
"""
# %% setup
import json
import urllib.request

from cell_data import start_server

server, base = start_server(latency_ms=10)
test_data = [{"instruction": f"Rewrite sentence {i}.", "input": "The cake was baked by him.",
              "output": "He baked the cake.", "model_response": f"He baked cake {i}."} for i in range(110)]


def format_input(entry):
    return f"Below is an instruction.\n\n### Instruction:\n{entry['instruction']}\n\n### Input:\n{entry['input']}"


def query_model(prompt, model="llama3", url=f"{base}/api/chat"):
    data = {"model": model, "messages": [{"role": "user", "content": prompt}],
            "options": {"seed": 123, "temperature": 0, "num_ctx": 2048}}
    payload = json.dumps(data).encode("utf-8")
    request = urllib.request.Request(url, data=payload, method="POST")
    request.add_header("Content-Type", "application/json")
    response_data = ""
    with urllib.request.urlopen(request) as response:
        response_json = json.loads(response.read().decode("utf-8"))
        response_data += response_json["message"]["content"]
    return response_data
# %% cell
def generate_model_scores(json_data, json_key, model="llama3"):
    scores = []
    for entry in json_data:  # expect: AIP402
        prompt = (f"Given the input `{format_input(entry)}` and correct output `{entry['output']}`, "
                  f"score the model response `{entry[json_key]}` on a scale from 0 to 100. "
                  f"Respond with the integer number only.")
        score = query_model(prompt, model)  # expect: AIP402
        try:
            scores.append(int(score))
        except ValueError:
            continue
    return scores


scores = generate_model_scores(test_data, "model_response")
print(f"Average score: {sum(scores) / len(scores):.2f}")
# %% teardown
server.kill()
