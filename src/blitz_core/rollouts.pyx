# Placeholder: the rollouts layer lands here (see its issue).
