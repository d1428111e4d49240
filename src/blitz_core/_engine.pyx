# cython: language_level=3
def hello():
    return 1
