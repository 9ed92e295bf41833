"""checker/run list: every puzzle."""
from course import specs

HELP = "every puzzle, with its title"


def add_arguments(parser):
    pass


def run(args):
    for spec in specs.load_all():
        print(f"{spec['id']:<24} {spec['title']}")
    return 0
