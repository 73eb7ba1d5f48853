#include <stdio.h>
#include "does_not_exist.h"

void f(double *a) { a[0] = 1; }
