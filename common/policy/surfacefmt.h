/* surfacefmt.h - what `airlock review show` prints of a captured MCP
 * surface (common/mcp/surface.h): every item whole, as its canonical
 * JSON, with its SHA-256. Text escapes every byte outside printable
 * ASCII as \xNN (a description's terminal controls, bidi overrides and
 * text meant for a model all show as bytes); JSON follows the one rule
 * of docs/HACKING.md ("JSON text"). */
#ifndef AIRLOCK_SURFACEFMT_H
#define AIRLOCK_SURFACEFMT_H

#include <stdio.h>

#include "common/mcp/surface.h"

/* The surface as aligned text, after a record. */
void surface_print(FILE *f, struct surface *s);

/* The surface as one JSON object: {"protocolVersion":..., "serverInfo":
 * ..., "capabilities":..., "instructions":..., "tools":[{"sha256":HEX,"item":{...}}...],
 * "prompts":[...], "resourceTemplates":[...]}. */
void surface_print_json(FILE *f, struct surface *s);

#endif
