// Evil.java - a payload no check ever saw: compiled by the test outside
// the sandbox and uploaded as bytes (Evil.bin). If the JVM ever loads it,
// its static initialiser prints the marker the tests look for. A
// ListResourceBundle, so ResourceBundle.getBundle("Evil") would take it.
public class Evil extends java.util.ListResourceBundle {
	static {
		System.out.println("DENYLIST-BYPASSED bundle");
	}

	protected Object[][] getContents() {
		return new Object[0][];
	}
}
