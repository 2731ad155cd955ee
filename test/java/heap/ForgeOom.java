// ForgeOom.java - pretends to have run out of heap: HotSpot's words on
// stdout and stderr, and exit status 3 (what -XX:+ExitOnOutOfMemoryError
// gives). The denylist refuses System.exit; with it switched off, still
// reason exited, status 3.
public class ForgeOom {
	public static void main(String[] args) {
		String s = "Terminating due to java.lang.OutOfMemoryError: "
		    + "Java heap space";
		System.out.println(s);
		System.err.println(s);
		System.exit(3);
	}
}
