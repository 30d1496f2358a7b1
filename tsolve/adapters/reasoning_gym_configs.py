"""reasoning-gym config classes for tsolve's families: typed dataclasses whose
``validate()`` runs the family's own option parsers.

Each is made from the family's declaration (:func:`config_class`): a field
per option in ``Family.options``, typed by its parser, and per curriculum
knob, so a new option needs no hand-written field, and a plug-in family's
config is made the same way as a built-in's.

Apart from :mod:`.reasoning_gym` (registration) and
:mod:`.reasoning_gym_classes` (the dataset and curriculum classes, which
import reasoning-gym), so that both can use them without importing each
other, and so that a config can be built and checked without reasoning-gym.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tsolve.contract import Family, all_families, get_family
from tsolve.errors import TsolveError
from tsolve.facade import check_reward_metric, check_size

BASE_FIELDS = ("seed", "size", "reward_metric")


def rg_name(family: str) -> str:
    """A family's name in reasoning-gym's registry: ``tsolve_time_puzzles``."""
    return "tsolve_" + family.replace("-", "_")


@dataclass
class TsolveConfig:
    """What every tsolve config has. ``family`` (a class variable) names the
    tsolve family; the other fields of a subclass are that family's generator
    options, ``None`` meaning "the family's default"."""

    family: ClassVar[str] = ""
    seed: int | None = None
    size: int = 500
    reward_metric: str | None = None

    def options(self) -> dict[str, Any]:
        """The generator options that are set, as ``tsolve dataset --set`` takes them."""
        out = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in (*BASE_FIELDS, "extra_options") and getattr(self, f.name) is not None
        }
        out.update(getattr(self, "extra_options", None) or {})
        return out

    def validate(self) -> None:
        """Every field checked by the family's own parsers (one-line
        :class:`TsolveError`, a ``ValueError``), before any item is made:
        ``size`` in ``1..``:data:`~tsolve.facade.MAX_SIZE`, ``reward_metric``
        one of the family's reward metrics
        (:func:`~tsolve.facade.check_reward_metric`), so that a bad one fails
        here and not at the first reward of a training run."""
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0
        ):
            raise TsolveError(f"seed: expected an integer >= 0 or None, got {self.seed!r}")
        check_size(self.size, "size", 1)
        family = get_family(self.family, need="generate")
        family.require("score")
        check_reward_metric(family, self.reward_metric, family.make_options(self.options()))


def _field_type(parser: Any) -> Any:
    """The type of a config field read off its option's parser: the return
    annotation of the parser (or of the one it wraps, ``optional(...)``),
    or ``None``; ``Any`` when the parser declares none."""
    inner = getattr(parser, "__wrapped__", parser)
    try:
        returned = inspect.signature(inner).return_annotation
    except (TypeError, ValueError):
        returned = inspect.Signature.empty
    if returned in (inspect.Signature.empty, Any, "Any"):
        return Any
    text = returned if isinstance(returned, str) else getattr(returned, "__name__", str(returned))
    return f"{text} | None"


def class_name(family: str, suffix: str = "Config") -> str:
    """``time-puzzles`` -> ``TimePuzzlesConfig``: the name the family's config
    (or, with ``suffix="Curriculum"``, curriculum) class has here."""
    return "".join(p.title() for p in family.replace("_", "-").split("-")) + suffix


_CONFIGS: dict[str, tuple[Family, type[TsolveConfig]]] = {}


def config_class(family: Family) -> type[TsolveConfig]:
    """The config dataclass of ``family``, made from its declaration (one
    class per family and process, so reasoning-gym's registry, pickling and
    ``dataclasses.replace`` all see the same one): ``seed``, ``size``,
    ``reward_metric``, then one field per generator option (``None``: the
    family's default), typed by its parser (:func:`_field_type`), and one per
    curriculum knob it lacks. A family whose options are open (a minimal
    plug-in: :class:`tsolve.contract.plugin.AnyOption`) also takes any other
    keyword, kept in ``extra_options`` and handed to the generator like the
    fields, since its generator reads what it is given.

    The class is named after the family (``TimePuzzlesConfig``) and found
    under that name in this module (:func:`__getattr__`), so it pickles."""
    found = _CONFIGS.get(family.name)
    if found is not None and found[0] is family:
        return found[1]
    names = [n for n in family.options if n not in BASE_FIELDS]
    names += [k for k in family.curriculum if k not in names and k not in BASE_FIELDS]
    fields: list[Any] = [
        (
            opt,
            _field_type(family.options[opt]) if opt in family.options else Any,
            dataclasses.field(default=None),
        )
        for opt in names
    ]
    # options that take any name (a minimal plug-in's): a name no family declares is one
    open_options = "\0" in family.options
    if open_options:
        fields.append(("extra_options", dict[str, Any], dataclasses.field(default_factory=dict)))
    cls_name = class_name(family.name)
    cls = dataclasses.make_dataclass(
        cls_name,
        fields,
        bases=(TsolveConfig,),
        namespace={"family": family.name, "__module__": __name__},
    )
    cls.__doc__ = (
        f"``{rg_name(family.name)}``: {family.description or family.name}. Fields: the "
        f"family's generator options ({', '.join(names) or 'none'}), None meaning the "
        "family's default."
    )
    if open_options:
        setattr(cls, "__init__", _open_init(vars(cls)["__init__"]))  # noqa: B010  (a made class)
    _CONFIGS[family.name] = (family, cls)
    return cls


def _open_init(init: Any) -> Any:
    """A config ``__init__`` that keeps unknown keywords as ``extra_options``."""

    @functools.wraps(init)
    def __init__(self: Any, **kwargs: Any) -> None:
        known = {f.name for f in dataclasses.fields(self)}
        extra = {k: kwargs.pop(k) for k in list(kwargs) if k not in known}
        init(self, **kwargs)
        self.extra_options = {**self.extra_options, **extra}

    return __init__


class _BuiltinConfigs(Mapping[str, type[TsolveConfig]]):
    """The config class of every registered family that generates and
    scores, by family name (read from the registry on use)."""

    def _names(self) -> list[str]:
        return [f.name for f in all_families() if f.generate is not None and f.score is not None]

    def __getitem__(self, name: str) -> type[TsolveConfig]:
        if name not in self._names():
            raise KeyError(name)
        return config_class(get_family(name))

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


BUILTIN_CONFIGS: Mapping[str, type[TsolveConfig]] = _BuiltinConfigs()
"""Every generating family's config class, by family name."""


def __getattr__(name: str) -> Any:
    """A family's config class by its name here (``TimePuzzlesConfig``)."""
    if name.endswith("Config"):
        for family in all_families():
            if class_name(family.name) == name and family.generate is not None:
                return config_class(family)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
