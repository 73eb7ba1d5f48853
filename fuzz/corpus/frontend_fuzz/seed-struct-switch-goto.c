struct point { double x, y; int tag; };
struct point pts[100];
int classify(int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    switch (pts[i].tag) {
      case 0: pts[i].x += 1; /* fall through */
      case 1: total += (int)pts[i].y; break;
      default: goto out;
    }
  }
out:
  return total > 0 ? total : -total;
}
int main(void) { return classify(100); }
