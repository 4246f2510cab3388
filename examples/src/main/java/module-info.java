/**
 * The examples as a module, so that they also run on the module path: there, native access is granted to
 * org.hpio.core alone (the module whose FFM downcalls need it).
 */
module org.hpio.examples {
    requires org.hpio.core;
    requires org.hpio.archive;
}
