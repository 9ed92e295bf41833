"""A compiler's dependency file (-MD -MF): the files it names after its target."""


def names(path):
    """The files the dependency file at `path` names after its target, in order."""
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    _, _, listed = text.partition(": ")
    return listed.split()
