# Placeholder: the bots layer lands here (see its issue).
