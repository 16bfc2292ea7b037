"""The one error the rules raise: an illegal action, named by the rule it breaks."""


class RuleError(ValueError):
    """An action the rules do not allow. The game state it was applied to is unchanged."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
