// AnnotClass.java - a class named only as an annotation's value
// (@Holds(ProcessBuilder.class)): the class file holds it as a descriptor
// string in the annotation, not as a class constant. Refused before it
// runs: the check reads every descriptor in the class file.
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

public class AnnotClass {
	@Retention(RetentionPolicy.RUNTIME)
	@interface Holds {
		Class<?> value();
	}

	@Holds(ProcessBuilder.class)
	static class Carrier {
	}

	public static void main(String[] args) {
		Class<?> c = Carrier.class.getAnnotation(Holds.class).value();
		System.out.println("{\"built\":\"" + c.getName() + "\"}");
	}
}
