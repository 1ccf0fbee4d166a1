#!/usr/bin/env python3
"""Reads IFC files with IfcOpenShell and reports what it finds, as JSON on stdout.

usage: ifc_check.py FILE.ifc ...

For each file: the validator's errors (schema, and EXPRESS where-rules and functions),
how many products of each class there are, the storeys, spaces and products with their
world placements, property sets, containers and hosts, and (when ifcopenshell.geom can
build shapes) the volume of every wall and space. The Swift tests compare all this with
the RoomPlan JSON the files were written from. One process checks many files because
the EXPRESS rules take seconds to load.
"""
import json
import sys
import time


def fail(message):
    print(json.dumps({"unavailable": message}))
    sys.exit(0)


try:
    import ifcopenshell
    import ifcopenshell.guid
    import ifcopenshell.validate
    import ifcopenshell.util.element as element_util
    import ifcopenshell.util.placement as placement_util
except Exception as error:  # the test skips, saying why
    fail(f"ifcopenshell cannot be imported: {error}")

try:
    import ifcopenshell.geom
    import ifcopenshell.util.shape as shape_util
    GEOMETRY = True
except Exception:
    GEOMETRY = False

PRODUCTS = ["IfcWall", "IfcWallStandardCase", "IfcDoor", "IfcWindow", "IfcOpeningElement", "IfcSlab", "IfcSpace",
            "IfcBuildingStorey", "IfcBuilding", "IfcSite", "IfcProject", "IfcFurniture", "IfcFurnishingElement",
            "IfcSanitaryTerminal", "IfcElectricAppliance", "IfcAudioVisualAppliance", "IfcStair",
            "IfcBuildingElementProxy"]


def matrix(product):
    """The product's placement in the world, as 4 rows of 4."""
    if product.ObjectPlacement is None:
        return None
    return [list(map(float, row)) for row in placement_util.get_local_placement(product.ObjectPlacement)]


def container(product):
    structure = element_util.get_container(product)
    return structure.GlobalId if structure else None


def host(product):
    """For a door or window: the opening it fills and the wall that opening voids."""
    for fills in getattr(product, "FillsVoids", []) or []:
        opening = fills.RelatingOpeningElement
        for voids in opening.VoidsElements or []:
            return opening.GlobalId, voids.RelatingBuildingElement.GlobalId
        return opening.GlobalId, None
    return None, None


def check(path, settings):
    started = time.perf_counter()
    model = ifcopenshell.open(path)
    opened = time.perf_counter() - started
    logger = ifcopenshell.validate.json_logger()
    started = time.perf_counter()
    ifcopenshell.validate.validate(model, logger, express_rules=True)
    validated = time.perf_counter() - started
    errors = [f"{s.get('type')}: {s.get('message')} on {s.get('instance')}" for s in logger.statements
              if s.get("level") == "error"]
    warnings = [f"{s.get('type')}: {s.get('message')}" for s in logger.statements if s.get("level") != "error"]

    report = {
        "schema": model.schema,
        "openSeconds": opened,
        "validateSeconds": validated,
        "errors": errors,
        "warnings": warnings,
        "counts": {name: len(model.by_type(name, include_subtypes=False)) for name in PRODUCTS},
        "units": sorted(f"{u.UnitType}:{u.Name}" for u in model.by_type("IfcSIUnit")),
        "storeys": [],
        "spaces": [],
        "products": [],
        "geometry": GEOMETRY,
    }
    globalids = [e.GlobalId for e in model.by_type("IfcRoot")]
    report["duplicateGlobalIds"] = len(globalids) - len(set(globalids))

    for storey in model.by_type("IfcBuildingStorey"):
        report["storeys"].append({"globalId": storey.GlobalId, "name": storey.Name, "elevation": storey.Elevation,
                                  "matrix": matrix(storey)})
    for space in model.by_type("IfcSpace"):
        quantities = element_util.get_psets(space, qtos_only=True).get("Qto_SpaceBaseQuantities", {})
        entry = {"globalId": space.GlobalId, "uuid": ifcopenshell.guid.expand(space.GlobalId), "name": space.Name, "longName": space.LongName,
                 "storey": space.Decomposes[0].RelatingObject.GlobalId if space.Decomposes else None,
                 "netFloorArea": quantities.get("NetFloorArea"), "height": quantities.get("Height"),
                 "psets": element_util.get_psets(space, psets_only=True), "matrix": matrix(space)}
        if GEOMETRY and space.Representation:
            try:
                shape = ifcopenshell.geom.create_shape(settings, space)
                entry["volume"] = shape_util.get_volume(shape.geometry)
                entry["footprintArea"] = shape_util.get_footprint_area(shape.geometry)
            except Exception as error:
                entry["geometryError"] = str(error)
        report["spaces"].append(entry)

    kinds = ["IfcWall", "IfcDoor", "IfcWindow", "IfcOpeningElement", "IfcSlab", "IfcFurniture", "IfcFurnishingElement",
             "IfcSanitaryTerminal", "IfcElectricAppliance", "IfcAudioVisualAppliance", "IfcStair", "IfcBuildingElementProxy"]
    for kind in kinds:
        for product in model.by_type(kind, include_subtypes=False):
            entry = {"class": kind, "globalId": product.GlobalId, "uuid": ifcopenshell.guid.expand(product.GlobalId),
                     "name": product.Name, "tag": getattr(product, "Tag", None),
                     "objectType": product.ObjectType, "predefinedType": getattr(product, "PredefinedType", None),
                     "container": container(product), "matrix": matrix(product),
                     "psets": element_util.get_psets(product)}
            if kind in ("IfcDoor", "IfcWindow"):
                entry["overallWidth"] = product.OverallWidth
                entry["overallHeight"] = product.OverallHeight
                entry["opening"], entry["wall"] = host(product)
            if kind == "IfcOpeningElement":
                voids = product.VoidsElements
                entry["wall"] = voids[0].RelatingBuildingElement.GlobalId if voids else None
                entry["filledBy"] = [f.RelatedBuildingElement.GlobalId for f in product.HasFillings or []]
            if kind == "IfcWall":
                entry["openings"] = [v.RelatedOpeningElement.GlobalId for v in product.HasOpenings or []]
                if GEOMETRY:
                    try:
                        shape = ifcopenshell.geom.create_shape(settings, product)
                        entry["volume"] = shape_util.get_volume(shape.geometry)
                    except Exception as error:
                        entry["geometryError"] = str(error)
            report["products"].append(entry)
    return report


def main():
    settings = None
    if GEOMETRY:
        settings = ifcopenshell.geom.settings()
        settings.set("use-world-coords", True)
    reports = {}
    for path in sys.argv[1:]:
        try:
            reports[path] = check(path, settings)
        except Exception as error:
            reports[path] = {"errors": [f"could not read: {error}"], "fatal": True}
    print(json.dumps({"version": ifcopenshell.version, "files": reports}, default=str))


main()
