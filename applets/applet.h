/* applet.h - the prototype of every applet's entry point, from the table. */
#ifndef AIRLOCK_APPLET_H
#define AIRLOCK_APPLET_H

#define APPLET(name, summary) int name##_main(int argc, char **argv);
#include "applets.h"
#undef APPLET

#endif
