"""Tests of rpcheck.data_registry: the registry's records, and fetch/verify/cache against a loopback server.

Every download goes to an HTTP server on 127.0.0.1 (an ephemeral port, ``http.server`` in a thread) that serves
small fixture files in each real format (plain and bz2 svmlight, a TechTC pair, CSV, a MATLAB file); the
registry's real URLs are never contacted (``base_url`` points the downloads at the server, or the test builds
its own registry entries). After every failure the cache holds no new file and no staging directory.
"""

import bz2
import hashlib
import http.server
import json
import socket
import threading
from pathlib import Path

import numpy as np
import pytest

from rpcheck import data_registry as reg
from rpcheck.data_registry import RegisteredDataset, SourceFile
from rpcheck.errors import RpcheckError

ROOT = Path(__file__).resolve().parent.parent

SVM = b"1 1:0.5 3:1\n-1 2:1\n1 1:1 4:2\n-1 3:0.25\n1 2:3 4:1\n-1 1:2\n"  # 6 rows, 4 columns, 1-based
CSV = b"a,b,c,y\n1,2,3,1\n4,5,6,0\n7,8,9,1\n0,1,0,0\n"  # 4 rows, 3 feature columns
VECTORS = b"# TechTC pair\n1 1:2 5:1\n-1 2:1 3:4\n1 4:1\n-1 1:1 5:3\n"  # 4 documents
FEATURES = b"# features\n1 alpha\n2 beta\n3 gamma\n4 delta\n5 epsilon\n6 zeta\n"  # width 6


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves ``server.files`` (path -> bytes); ``/short/...`` announces more bytes than it sends."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        srv = self.server
        srv.hits.append(self.path)
        key = self.path.lstrip("/")
        if key.startswith("short/"):
            body = srv.files[key.split("/", 1)[1]]
            self.send_response(200)
            self.send_header("Content-Length", str(len(body) + 1000))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if key not in srv.files:
            self.send_error(404, "Not Found")
            return
        body = srv.files[key]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.daemon_threads = True
    srv.files = {
        "small.svm": SVM,
        "small.svm.bz2": bz2.compress(SVM),
        "small.csv": CSV,
        "features.idx": FEATURES,
        "vectors.dat": VECTORS,
        "broken.svm.bz2": b"BZh9 this is not a bzip2 stream",
    }
    srv.hits = []
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    srv.url = f"http://127.0.0.1:{srv.server_address[1]}"
    yield srv
    srv.shutdown()
    srv.server_close()


def _set(name="tiny", files=None, **kw):
    files = files or (
        SourceFile("small.svm", None, "train", "svmlight", rows=6, cols=4, nnz=9, stated_by="fixture"),
        SourceFile("small.svm.bz2", None, "test", "svmlight", "bz2", rows=6, cols=4, stated_by="fixture"),
        SourceFile("small.csv", None, "all", "csv", rows=4, cols=3, stated_by="fixture"),
    )
    base = dict(title="fixture", page="http://127.0.0.1/", terms="test", theorems=(), used_by="tests")
    base.update(kw)
    return RegisteredDataset(name=name, files=files, **base)


def _leftovers(root, allowed=()):
    """Every file under the cache except the manifest and the allowed ones (relative paths)."""
    out = []
    for p in sorted(Path(root).rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and rel != reg.MANIFEST and rel not in allowed:
            out.append(rel)
        if p.is_dir() and p.name.startswith(".fetch-"):
            out.append(rel + "/")
    return out


def _manifest(root):
    return json.loads((Path(root) / reg.MANIFEST).read_text())["files"]


# --------------------------------------------------------------------------------------------- downloads


def test_download_records_hashes_and_the_cache_is_not_refetched(server, tmp_path):
    tiny = _set()
    paths = reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    assert sorted(paths) == ["small.csv", "small.svm", "small.svm.bz2"]
    assert sorted(server.hits) == ["/small.csv", "/small.svm", "/small.svm.bz2"]
    assert paths["small.svm.bz2"].read_bytes() == server.files["small.svm.bz2"]
    man = _manifest(tmp_path)
    for name, body in server.files.items():
        if name in paths:
            rec = man[f"tiny/{name}"]
            assert rec["sha256"] == hashlib.sha256(body).hexdigest()
            assert rec["size"] == len(body) and rec["trust"] == "first use" and rec["source"] == "download"
    # second call: served from the cache, hashes verified, the server is not contacted
    again = reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    assert again == paths and len(server.hits) == 3
    # offline use of a cached set works and never contacts the server
    ds = reg.load("tiny", "train", cache=tmp_path, offline=True, registry=[tiny])
    assert (ds.n, ds.d) == (6, 4) and ds.y.tolist() == [1, -1, 1, -1, 1, -1]
    ds_csv = reg.load("tiny", "all", cache=tmp_path, registry=[tiny])
    assert (ds_csv.n, ds_csv.d) == (4, 3)
    assert len(server.hits) == 3
    assert _leftovers(tmp_path, allowed=[f"tiny/{n}" for n in paths]) == []


def test_a_published_hash_is_checked_and_recorded(server, tmp_path):
    good = "sha256:" + hashlib.sha256(SVM).hexdigest()
    tiny = _set(files=(SourceFile("small.svm", None, "all", "svmlight", known_hash=good, hash_source="fixture"),))
    reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    assert _manifest(tmp_path)["tiny/small.svm"]["trust"] == "published hash " + good
    wide = _set(name="wide", files=(SourceFile("small.svm", None, "all", "svmlight", cols=9, stated_by="p"),))
    ds = reg.load("wide", cache=tmp_path, offline=False, base_url=server.url, registry=[wide])
    assert ds.d == 9  # a stated width above the largest index used is no mismatch; the data set has that width
    md5 = "md5:" + hashlib.md5(SVM).hexdigest()
    tiny5 = _set(name="tiny5", files=(SourceFile("small.svm", None, "all", "svmlight", known_hash=md5),))
    reg.fetch("tiny5", cache=tmp_path, base_url=server.url, registry=[tiny5])


def test_hash_mismatch_discards_the_download(server, tmp_path):
    wrong = "sha256:" + hashlib.sha256(b"another file").hexdigest()
    tiny = _set(files=(SourceFile("small.svm", None, "all", "svmlight", known_hash=wrong, hash_source="fixture"),))
    with pytest.raises(RpcheckError, match=r"does not match the published hash sha256:.*\(fixture\); it was discarded"):
        reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    assert _leftovers(tmp_path) == [] and not (tmp_path / reg.MANIFEST).exists()


def test_wrong_shape_discards_the_download(server, tmp_path):
    tiny = _set(files=(
        SourceFile("small.svm", None, "all", "svmlight", rows=7, cols=4, stated_by="the fixture's page"),
    ))  # fmt: skip
    with pytest.raises(RpcheckError, match=r"wrong shape: rows 6 \(stated 7\) \(the fixture's page\); it was "
                                           r"discarded, nothing was cached"):  # fmt: skip
        reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    narrow = _set(files=(SourceFile("small.svm", None, "all", "svmlight", rows=6, cols=3, stated_by="p"),))
    with pytest.raises(RpcheckError, match=r"wrong shape: columns 4 \(stated 3\)"):
        reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[narrow])
    nnz = _set(files=(SourceFile("small.svm", None, "all", "svmlight", rows=6, cols=4, nnz=12, stated_by="p"),))
    with pytest.raises(RpcheckError, match=r"nonzeros 9 \(stated 12\)"):
        reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[nnz])
    assert _leftovers(tmp_path) == []


def test_a_failing_file_leaves_none_of_the_set_cached(server, tmp_path):
    """Files are checked together in staging: when the second one fails, the first is not moved in either."""
    tiny = _set(files=(
        SourceFile("small.svm", None, "train", "svmlight", rows=6, cols=4, stated_by="fixture"),
        SourceFile("small.csv", None, "test", "csv", rows=5, cols=3, stated_by="fixture"),
    ))  # fmt: skip
    with pytest.raises(RpcheckError, match=r"small.csv has the wrong shape|rows 4 \(stated 5\)"):
        reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    assert _leftovers(tmp_path) == []


def test_corrupt_download_is_discarded(server, tmp_path):
    tiny = _set(files=(SourceFile("broken.svm.bz2", None, "all", "svmlight", "bz2", rows=6, stated_by="f"),))
    with pytest.raises(RpcheckError, match=r"is not a valid svmlight file .*truncated or corrupt bz2"):
        reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    assert _leftovers(tmp_path) == []


def test_truncated_download_is_an_error_and_leaves_nothing(server, tmp_path):
    tiny = _set(files=(SourceFile("small.svm", None, "all", "svmlight"),))
    with pytest.raises(RpcheckError, match=r"download of http://127\.0\.0\.1:\d+/short/small.svm was cut short"):
        reg.fetch("tiny", cache=tmp_path, base_url=server.url + "/short", registry=[tiny])
    assert server.hits == ["/short/small.svm"]
    assert _leftovers(tmp_path) == []


def test_http_error_and_no_network(server, tmp_path):
    tiny = _set(files=(SourceFile("absent.svm", None, "all", "svmlight"),))
    with pytest.raises(RpcheckError, match=r"could not download http://127\.0\.0\.1:\d+/absent.svm: the server "
                                           r"answered HTTP 404 Not Found"):  # fmt: skip
        reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(RpcheckError, match=r"no connection to the server .*--offline"):
        reg.fetch("tiny", cache=tmp_path, base_url=f"http://127.0.0.1:{port}", registry=[tiny])
    assert _leftovers(tmp_path) == []


def test_offline_never_touches_the_network(server, tmp_path):
    tiny = _set()
    with pytest.raises(RpcheckError, match=r"small.svm is not in the cache .* offline mode forbids downloading"):
        reg.fetch("tiny", cache=tmp_path, offline=True, base_url=server.url, registry=[tiny])
    assert server.hits == [] and _leftovers(tmp_path) == []


def test_a_corrupted_cached_file_is_detected(server, tmp_path):
    tiny = _set()
    paths = reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[tiny])
    paths["small.svm"].write_bytes(SVM.replace(b"0.5", b"0.6"))
    with pytest.raises(RpcheckError, match=r"small.svm' has SHA-256 .* was recorded when it was first fetched .* "
                                           r"changed or is corrupt"):  # fmt: skip
        reg.fetch("tiny", cache=tmp_path, offline=True, registry=[tiny])
    with pytest.raises(RpcheckError, match=r"changed or is corrupt"):
        reg.load("tiny", "train", cache=tmp_path, registry=[tiny])
    assert len(server.hits) == 3  # detecting it did not download anything


def test_a_file_without_url_is_placed_by_hand_then_checked_and_recorded(server, tmp_path):
    tiny = _set(files=(SourceFile("small.svm", None, "all", "svmlight", rows=6, cols=4, stated_by="fixture"),),
                page="http://example.invalid/page.html", url_note="no URL confirmed")  # fmt: skip
    with pytest.raises(RpcheckError, match=r"no confirmed download URL \(no URL confirmed\)\. Get it from "
                                           r"http://example.invalid/page.html and place it at"):  # fmt: skip
        reg.fetch("tiny", cache=tmp_path, registry=[tiny])
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "small.svm").write_bytes(SVM[: SVM.index(b"\n") + 1] * 2)  # 2 rows, not 6
    with pytest.raises(RpcheckError, match=r"wrong shape: rows 2 \(stated 6\)"):
        reg.fetch("tiny", cache=tmp_path, registry=[tiny])
    (tmp_path / "tiny" / "small.svm").write_bytes(SVM)
    reg.fetch("tiny", cache=tmp_path, registry=[tiny])
    rec = _manifest(tmp_path)["tiny/small.svm"]
    assert rec["source"] == "placed in the cache by hand" and rec["sha256"] == hashlib.sha256(SVM).hexdigest()
    assert server.hits == []


def test_techtc_pair_download(server, tmp_path):
    pair = _set(name="Exp_1_2", files=(
        SourceFile("features.idx", None, "all", "archive"),
        SourceFile("vectors.dat", None, "train", "techtc", rows=4, cols=6, stated_by="fixture"),
    ))  # fmt: skip
    reg.fetch("Exp_1_2", cache=tmp_path, base_url=server.url, registry=[pair])
    ds = reg.load("Exp_1_2", "train", cache=tmp_path, registry=[pair])
    assert (ds.n, ds.d) == (4, 6) and ds.name == "Exp_1_2" and ds.y.tolist() == [1, -1, 1, -1]
    wide = _set(name="Exp_1_3", files=(
        SourceFile("features.idx", None, "all", "archive"),
        SourceFile("vectors.dat", None, "train", "techtc", rows=4, cols=5, stated_by="fixture"),
    ))  # fmt: skip
    with pytest.raises(RpcheckError, match=r"columns 6 \(stated 5\)"):
        reg.fetch("Exp_1_3", cache=tmp_path, base_url=server.url, registry=[wide])
    assert _leftovers(tmp_path, allowed=["Exp_1_2/features.idx", "Exp_1_2/vectors.dat"]) == []


def test_mat_file_download(server, tmp_path):
    import io

    import scipy.io

    buf = io.BytesIO()
    rng = np.random.default_rng(0)
    scipy.io.savemat(buf, {"fea": rng.random((9, 16)), "gnd": np.arange(1, 10).reshape(-1, 1)})
    server.files["faces.mat"] = buf.getvalue()
    faces = _set(files=(SourceFile("faces.mat", None, "all", "mat", rows=9, cols=16, stated_by="fixture"),),
                 task="regression")  # fmt: skip
    reg.fetch("tiny", cache=tmp_path, base_url=server.url, registry=[faces])
    ds = reg.load("tiny", "train", cache=tmp_path, registry=[faces])
    assert (ds.n, ds.d, ds.task) == (9, 16, "regression")


def test_a_registered_set_through_a_mirror(server, tmp_path):
    """A real registry entry (mushrooms: 8,124 x 112 stated) fetched from the loopback server as a mirror."""
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(3)
    X = (rng.random((8_124, 112)) < 0.2).astype(float)
    X[0, 111] = 1.0
    buf = __import__("io").BytesIO()
    dump_svmlight_file(X, rng.integers(1, 3, 8_124), buf, zero_based=False)
    server.files["mushrooms"] = buf.getvalue()
    paths = reg.fetch("mushrooms", cache=tmp_path, base_url=server.url)
    assert paths["mushrooms"] == tmp_path / "mushrooms" / "mushrooms"
    ds = reg.load("mushrooms", cache=tmp_path)
    assert (ds.n, ds.d) == (8_124, 112)
    row = [r for r in reg.status(cache=tmp_path) if r["set"] == "mushrooms"][0]
    assert row["present"] and row["size"] == len(server.files["mushrooms"])
    assert row["sha256"] == hashlib.sha256(server.files["mushrooms"]).hexdigest()
    assert not [r for r in reg.status(cache=tmp_path) if r["set"] == "gisette"][0]["present"]


# --------------------------------------------------------------------------------------------- settings


def test_cache_directory_setting(monkeypatch, tmp_path):
    monkeypatch.setenv(reg.DATA_DIR_ENV, str(tmp_path / "env"))
    assert reg.data_dir() == tmp_path / "env"
    assert reg.data_dir(tmp_path / "arg") == tmp_path / "arg"
    monkeypatch.delenv(reg.DATA_DIR_ENV)
    import pooch

    assert reg.data_dir() == Path(pooch.os_cache("rpcheck"))
    with pytest.raises(RpcheckError, match=r"`cache` \(3\) must be a directory path"):
        reg.data_dir(3)


def test_unreadable_manifest_is_one_clear_error(tmp_path):
    (tmp_path / reg.MANIFEST).write_text("{not json")
    with pytest.raises(RpcheckError, match=r"data manifest .* is unreadable"):
        reg.status(cache=tmp_path)


# --------------------------------------------------------------------------------------------- the registry


def test_registry_records_are_complete_and_consistent():
    from rpcheck.datasets import known_datasets
    from rpcheck.engine import registry

    theorem_ids = set(registry.ids())
    known = {k.name for k in known_datasets()}
    sets = reg.registered()
    assert {"techtc300", "rcv1-binary", "rcv1-multiclass", "mushrooms", "usps", "gisette", "real-sim",
            "news20-binary", "yalefaces", "nci60", "hapmap-hgdp", "ticc-digits"} == set(sets)  # fmt: skip
    for ds in sets.values():
        assert ds.page.startswith(("http://", "https://")) and ds.terms and ds.used_by, ds.name
        assert ds.theorems and set(ds.theorems) <= theorem_ids, (ds.name, set(ds.theorems) - theorem_ids)
        assert ds.expect is None or ds.expect in known, ds.name
        assert len({f.name for f in ds.files}) == len(ds.files)
        for f in ds.files:
            if f.url is None:
                assert ds.url_note, f"{ds.name}/{f.name} has no URL and no note saying why"
            else:
                assert f.url.startswith(("http://", "https://")) and f.url.endswith("/" + f.name)
                assert ds.url_note  # how the URL is confirmed
            assert (f.compression == "bz2") == f.name.endswith(".bz2")
            if f.rows is not None or f.cols is not None:
                assert f.stated_by, f"{ds.name}/{f.name}: a stated size names who states it"
            if f.known_hash is not None:
                alg, _, digest = f.known_hash.partition(":")
                assert alg in ("md5", "sha256") and int(digest, 16) >= 0 and f.hash_source


def test_registry_sizes_agree_with_the_papers_stated_shapes():
    """The stated file sizes are consistent with rpcheck.datasets.known_datasets (the papers' shapes)."""
    from rpcheck.datasets import known_datasets

    known = {k.name: k for k in known_datasets()}
    for ds in reg.REGISTRY:
        if ds.expect is None:
            continue
        spec = known[ds.expect]
        for f in ds.files:
            if f.part != "test" and f.rows is not None:
                assert any(lo <= f.rows <= hi for lo, hi in spec.n), (ds.name, f.name, f.rows, spec.n)
            if f.cols is not None:
                assert any(lo <= f.cols <= hi for lo, hi in spec.d), (ds.name, f.name, f.cols, spec.d)


def test_unknown_name_and_part():
    with pytest.raises(RpcheckError, match=r"`name` \('mnist'\) must be one of 'gisette'"):
        reg.fetch("mnist", offline=True)
    with pytest.raises(RpcheckError, match=r"`part` \('val'\) must be one of 'all', 'train', 'test'"):
        reg.load("mushrooms", "val")


def test_cli_fetch_and_list_through_a_mirror(server, tmp_path, capsys):
    from rpcheck.cli import main

    server.files["mushrooms"] = b"".join(b"%d 1:1 112:1\n" % (1 + i % 2) for i in range(8_124))
    code = main(["data", "fetch", "mushrooms", "--cache", str(tmp_path), "--base-url", server.url])
    out = capsys.readouterr().out
    assert code == 0 and f"mushrooms/mushrooms: {tmp_path / 'mushrooms' / 'mushrooms'}" in out and "verified" in out
    code = main(["data", "fetch", "mushrooms", "--cache", str(tmp_path), "--offline", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out) == {
        "mushrooms": {"mushrooms": str(tmp_path / "mushrooms" / "mushrooms")}
    }
    code = main(["data", "list", "--cache", str(tmp_path)])
    line = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("mushrooms")][0]
    assert code == 0 and f"{len(server.files['mushrooms']):,} B" in line and str(tmp_path) in line
    assert server.hits == ["/mushrooms"]


def test_a_url_pooch_cannot_use_is_one_error(tmp_path):
    tiny = _set(files=(SourceFile("small.svm", None, "all", "svmlight"),))
    with pytest.raises(RpcheckError, match=r"could not download nosuchscheme://x/small.svm: InvalidSchema"):
        reg.fetch("tiny", cache=tmp_path, base_url="nosuchscheme://x", registry=[tiny])
    assert _leftovers(tmp_path) == []


def test_the_manifest_keeps_records_written_meanwhile(server, tmp_path, monkeypatch):
    """A fetch re-reads the manifest before writing it: a record another fetch wrote meanwhile survives."""
    one = _set(name="one", files=(SourceFile("small.svm", None, "all", "svmlight"),))
    two = _set(name="two", files=(SourceFile("small.csv", None, "all", "csv"),))
    real = reg.fetching._download  # fetch looks _download up in its own module

    def download_then_other_fetch(url, staging, f):
        path = real(url, staging, f)
        if f.name == "small.svm":  # while "one" is being fetched, "two" is fetched and recorded
            reg.fetch("two", cache=tmp_path, base_url=server.url, registry=[two])
        return path

    monkeypatch.setattr(reg.fetching, "_download", download_then_other_fetch)
    reg.fetch("one", cache=tmp_path, base_url=server.url, registry=[one])
    assert sorted(_manifest(tmp_path)) == ["one/small.svm", "two/small.csv"]
