"""SVG documents back out of a bundle of React SVG components (as SVGR writes them).

Some card packs reach the npm registry only as React components: each card a function returning
nested ``React.createElement(tag, {props}, ...children)`` calls. This reads those calls with
Python's own parser (nothing of the bundle is run) and writes each component as an SVG document,
its props turned back into SVG attribute names.
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET

# Props SVGR writes in camelCase that SVG also spells in camelCase; every other camelCase prop is an
# SVG attribute in kebab-case (strokeWidth -> stroke-width).
_CAMEL_SVG = {"viewBox", "preserveAspectRatio", "patternUnits", "patternContentUnits", "patternTransform",
              "gradientUnits", "gradientTransform", "clipPathUnits", "maskUnits", "maskContentUnits",
              "stdDeviation", "markerWidth", "markerHeight", "refX", "refY", "textLength", "lengthAdjust",
              "spreadMethod", "startOffset", "baseFrequency", "numOctaves", "kernelMatrix", "tableValues",
              "pathLength", "filterUnits", "primitiveUnits"}
_RENAMED = {"className": "class", "xlinkHref": "xlink:href", "xmlnsXlink": "xmlns:xlink", "xmlSpace": "xml:space"}
_COMPONENT = re.compile(r"const (Svg\w+) = _ref => \{.*?return (.*?);\n\};", re.S)


def components(bundle: str) -> dict[str, str]:
    """Component name (``SvgSQ``) -> its SVG document, for every component in ``bundle``."""
    return {name: _svg(body) for name, body in _COMPONENT.findall(bundle)}


def _svg(expr: str) -> str:
    expr = expr.replace("/*#__PURE__*/", "")
    expr = re.sub(r"_extends\((\{.*?\}), props\)", r"\1", expr, flags=re.S)
    expr = re.sub(r"title \? React\.createElement\(\"title\", \{\s*id: titleId\s*\}, title\) : null", "None", expr)
    expr = re.sub(r',\s*"aria-labelledby": titleId', "", expr)
    expr = expr.replace("React.createElement(", "E(").replace("null", "None")
    expr = re.sub(r"([{,]\s*)([A-Za-z_]\w*):", r'\1"\2":', expr)  # JS object keys -> Python's
    root = _element(ast.parse(expr, mode="eval").body)
    root.set("xmlns", "http://www.w3.org/2000/svg")
    return ET.tostring(root, encoding="unicode")


def _element(node: ast.expr) -> ET.Element:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "E"):
        raise ValueError(f"not a createElement call: {ast.dump(node)[:80]}")
    tag, props, *children = node.args
    el = ET.Element(ast.literal_eval(tag))
    for k, v in (ast.literal_eval(props) or {}).items():
        el.set(_attribute(k), str(v))
    for child in children:
        if isinstance(child, ast.Constant) and child.value is None:
            continue
        if isinstance(child, ast.Constant):
            el.text = (el.text or "") + str(child.value)
        else:
            el.append(_element(child))
    return el


def _attribute(prop: str) -> str:
    if prop in _RENAMED:
        return _RENAMED[prop]
    if prop in _CAMEL_SVG or prop.islower() or "-" in prop:
        return prop
    return re.sub(r"([A-Z])", lambda m: "-" + m.group(1).lower(), prop)
