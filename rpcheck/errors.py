"""Exception and warning types shared by every layer of rpcheck."""

__all__ = ["RpcheckError", "MemoryLimitError", "RpcheckWarning", "SolverError", "NotSeparableError"]


class RpcheckError(ValueError):
    """Invalid argument or input. The message names the argument, its value and the allowed values."""


class MemoryLimitError(RpcheckError):
    """A request would need more memory than is available (raised before allocating, by
    ``rpcheck._validation.check_memory``): the arguments are too large for this machine."""


class RpcheckWarning(UserWarning):
    """A result is valid but deserves attention (e.g. a vacuous bound, a loosened solver tolerance)."""


class SolverError(RuntimeError):
    """A numerical solver failed. The engine counts such trials as ``solver_error``, never as failures
    of the claim under test.

    Parameters
    ----------
    message : str
    status : str, optional
        The solver's own status string (e.g. ``"infeasible_inaccurate"``).
    solver : str, optional
    """

    def __init__(self, message, *, status=None, solver=None):
        super().__init__(message)
        self.status = status
        self.solver = solver


class NotSeparableError(SolverError):
    """A hard-margin problem (``C=np.inf``) was posed on data that are not linearly separable."""
