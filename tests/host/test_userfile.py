"""osada/files/userfile.py: a file a user names, read with one sentence for what is wrong."""

import pytest

from osada.files.userfile import UnreadableFile, read_text


def test_a_file_a_user_names_is_read_or_refused_in_one_sentence(tmp_path):
    good = tmp_path / "a.txt"
    good.write_text("строка\n", encoding="utf-8")
    assert read_text(str(good), "state file") == "строка\n"
    bad = tmp_path / "b.txt"
    bad.write_bytes(b"ok \xff")
    cases = ((str(tmp_path / "none"), "state file", "cannot read the state file %s: no such file"),
             (str(tmp_path), None, "cannot read %s: it is a directory"),
             (str(bad), "config", "the config %s is not UTF-8 text (byte 3)"))
    for path, what, said in cases:
        with pytest.raises(UnreadableFile) as exc:
            read_text(path, what)
        assert str(exc.value) == said % path
