import json


def load(text):
    data = json.loads(text)
    return {"precision": int(data.get("precision", 2))}
