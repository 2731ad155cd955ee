// HideOom.java - runs out of heap but tries to hide it: closes stdout and
// stderr first (no "OutOfMemoryError" text can appear), catches the
// error, and returns normally (exit 0). Still reason memory.
import java.util.ArrayList;

public class HideOom {
	public static void main(String[] args) {
		System.out.close();
		System.err.close();
		ArrayList<long[]> held = new ArrayList<>();
		try {
			for (;;)
				held.add(new long[1 << 16]);
		} catch (OutOfMemoryError e) {
			held = null;
		}
	}
}
