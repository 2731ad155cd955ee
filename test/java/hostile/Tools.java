// Tools.java - looks for the JDK's in-process tools by name: javac would
// compile new classes at run time (then loaded from wherever it wrote
// them), jshell would run code it was given as text. Neither is in the
// sandbox's module graph (java.base alone), so neither is found.
import java.util.spi.ToolProvider;

public class Tools {
	public static void main(String[] args) {
		System.out.println("javac=" + ToolProvider.findFirst("javac").isPresent()
		    + " jshell=" + ToolProvider.findFirst("jshell").isPresent()
		    + " jar=" + ToolProvider.findFirst("jar").isPresent());
	}
}
